import type { z } from 'zod';
import type { DomainContract, OpDef } from '../contract/define';
import { CORE_STORES, type StoreSpec, type StoreSpecs } from './mirror';
import type {
  ChangeApplier,
  Mutation,
  OfferHandler,
  OpHandler,
  ResolvedEndpoint,
  StoreWatcher,
  WorkerDomain,
} from './registry';
import { bindDomainState } from './registry-runtime';

/**
 * The registry: every worker domain merged into the tables the core runs on. The mirror opens
 * `specs`, sign-out wipes `userStores`, dispatch validates with `ops` and answers with `reads`
 * or the outbox's `mutations`, and the change-feed pull applies `changes`. Two domains naming
 * the same store, op or change entity, or an op no part answers, fail here, at start. A registry
 * is made per workspace: its domains are bound to the workspace's own state.
 */
export type Registry = {
  domains: readonly WorkerDomain[];
  /** What the mirror opens: its core stores and every domain's. */
  specs: StoreSpecs<string>;
  /** The domains' stores: the user's data, wiped on sign-out and cleared on a feed reset. */
  domainStores: string[];
  /** Every op a tab may call (the core's contracts' and each domain's), with its schemas. */
  ops: Record<string, OpDef>;
  reads: Map<string, { domain: WorkerDomain; handler: OpHandler<string, unknown, unknown> }>;
  mutations: Map<string, RegisteredMutation>;
  changes: Map<string, { schema: z.ZodType; apply: ChangeApplier<string, unknown> }>;
  watchers: Map<string, StoreWatcher<string>[]>;
  /** What each domain offers the others (`ctx.ask`), by name. */
  offers: Map<string, OfferHandler>;
};

export type RegisteredMutation = {
  domain: WorkerDomain;
  mutation: Mutation<string, unknown, unknown>;
  endpoint: ResolvedEndpoint;
};

/**
 * Builds the registry from the core's contracts (ops the core answers itself: tabs, auth,
 * sync) and the worker domains.
 */
export function createRegistry(
  core: readonly DomainContract[],
  declared: readonly WorkerDomain[],
): Registry {
  const domains = declared.map(bindDomainState);
  const registry: Registry = {
    domains,
    specs: { ...CORE_STORES },
    domainStores: [],
    ops: {},
    reads: new Map(),
    mutations: new Map(),
    changes: new Map(),
    watchers: new Map(),
    offers: new Map(),
  };
  const owners = new Map<string, string>();
  const claim = (what: string, name: string, by: string) => {
    const id = `${what} "${name}"`;
    const earlier = owners.get(id);
    if (earlier) throw new Error(`worker registry: ${id} is declared by ${earlier} and ${by}`);
    owners.set(id, by);
  };

  for (const store of Object.keys(CORE_STORES)) claim('store', store, 'the mirror core');
  for (const contract of core) {
    for (const [name, def] of Object.entries(contract.ops)) {
      claim('op', name, `the core (${contract.name})`);
      registry.ops[name] = def;
    }
  }

  for (const domain of domains) {
    const by = `domain "${domain.contract.name}"`;
    addStores(registry, domain, by, claim);
    for (const [name, def] of Object.entries(domain.contract.ops)) {
      claim('op', name, by);
      registry.ops[name] = def;
      const handler = Object.hasOwn(domain.reads, name) ? domain.reads[name] : null;
      const mutation = Object.hasOwn(domain.mutations, name) ? domain.mutations[name] : null;
      if (handler && mutation) {
        throw new Error(`worker registry: op "${name}" of ${by} is both a read and a mutation`);
      }
      if (handler) registry.reads.set(name, { domain, handler });
      else if (mutation) {
        const endpoint = {
          name: mutation.endpoint,
          def: domain.contract.endpoints[mutation.endpoint],
        };
        if (!endpoint.def)
          throw new Error(`worker registry: ${by} has no endpoint "${endpoint.name}"`);
        registry.mutations.set(name, { domain, mutation, endpoint });
      } else throw new Error(`worker registry: op "${name}" of ${by} has no read or mutation`);
    }
    for (const [entity, schema] of Object.entries(domain.contract.changes)) {
      claim('change entity', entity, by);
      const apply = Object.hasOwn(domain.changes, entity) ? domain.changes[entity] : null;
      if (!apply) throw new Error(`worker registry: ${by} does not apply "${entity}" changes`);
      registry.changes.set(entity, { schema, apply });
    }
    for (const [name, offer] of Object.entries(domain.offers)) {
      claim('offer', name, by);
      registry.offers.set(name, offer);
    }
    for (const [store, watcher] of Object.entries(domain.watch)) {
      if (!Object.hasOwn(domain.stores, store)) {
        throw new Error(`worker registry: ${by} watches "${store}", a store it does not declare`);
      }
      registry.watchers.set(store, [...(registry.watchers.get(store) ?? []), watcher]);
    }
  }
  for (const domain of domains) addFollows(registry, domain);
  return registry;
}

/**
 * A domain's offer to the others, or a throw naming it when no domain gives it (a domain
 * declared its entry in DomainOffers but is not in this workspace's list).
 */
export function offerOf(registry: Registry, name: string): OfferHandler {
  const offer = registry.offers.get(name);
  if (!offer) throw new Error(`worker registry: no domain offers "${name}"`);
  return offer;
}

/**
 * A domain's follows of other domains: watchers of their stores, and appliers run after the
 * owner's applier of their change entities.
 */
function addFollows(registry: Registry, domain: WorkerDomain) {
  const by = `domain "${domain.contract.name}"`;
  for (const [store, watcher] of Object.entries(domain.follows.stores)) {
    if (!registry.domainStores.includes(store) || Object.hasOwn(domain.stores, store)) {
      throw new Error(`worker registry: ${by} follows "${store}", not another domain's store`);
    }
    registry.watchers.set(store, [...(registry.watchers.get(store) ?? []), watcher]);
  }
  for (const [entity, follow] of Object.entries(domain.follows.changes)) {
    const owned = registry.changes.get(entity);
    if (!owned || Object.hasOwn(domain.contract.changes, entity)) {
      throw new Error(`worker registry: ${by} follows "${entity}", not another domain's change`);
    }
    const first = owned.apply;
    registry.changes.set(entity, {
      schema: owned.schema,
      async apply(change, tx) {
        await first(change, tx);
        await follow(change, tx);
      },
    });
  }
}

function addStores(
  registry: Registry,
  domain: WorkerDomain,
  by: string,
  claim: (what: string, name: string, by: string) => void,
) {
  const declared = new Set<string>(domain.contract.stores);
  for (const [store, spec] of Object.entries(domain.stores) as [string, StoreSpec][]) {
    if (!declared.has(store)) {
      throw new Error(
        `worker registry: ${by} keeps "${store}", a store its contract does not name`,
      );
    }
    claim('store', store, by);
    registry.specs[store] = spec;
    registry.domainStores.push(store);
  }
  for (const store of declared) {
    if (!Object.hasOwn(domain.stores, store)) {
      throw new Error(`worker registry: ${by} gives no spec for its store "${store}"`);
    }
  }
}
