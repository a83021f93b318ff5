import type { Variant } from '../contract/tabs';
import type {
  ChangeApplier,
  ChangeTx,
  DomainContext,
  DomainCtx,
  Mutation,
  OfferHandler,
  StoreWatcher,
  WorkerDomain,
} from './registry';
import type { Owner } from './session';

/**
 * What the registry's domains run with at runtime: their per-workspace state, the session's
 * cancel signal and the refresh of what they cache forever.
 */

/**
 * The domain with every part bound to one workspace's state: `state(ctx)` is made the first
 * time a part runs (from the workspace's context) and handed on as `ctx.state`. A registry is
 * made per workspace, so each workspace holds its own state of every domain.
 */
export function bindDomainState(domain: WorkerDomain): WorkerDomain {
  const make = domain.state;
  if (!make) return domain;
  type Bound = { base: DomainContext; ctx: DomainContext & { state: unknown } };
  let bound: Bound | null = null;
  const withState = (base: DomainContext): DomainCtx => {
    if (bound?.base === base) return bound.ctx;
    // One workspace has one context: this runs once per registry.
    const made: Bound = { base, ctx: { ...base, state: make(base) } };
    bound = made;
    return made.ctx;
  };
  const watcher =
    (w: StoreWatcher<string>): StoreWatcher<string> =>
    (keys, ctx) =>
      w(keys, { ...ctx, state: bound?.ctx.state });
  const applier =
    (apply: ChangeApplier<string, unknown>): ChangeApplier<string, unknown> =>
    (change, tx) => {
      const own: ChangeTx<string> = {
        get: (store, key) => tx.get(store, key),
        put: (store, key, value) => tx.put(store, key, value),
        after: (work) => tx.after((ctx) => work(withState(ctx))),
      };
      return apply(change, own);
    };
  const mutation = (m: Mutation<string, unknown, unknown>): Mutation<string, unknown, unknown> => ({
    ...m,
    admit: m.admit && ((ctx) => m.admit!(withState(ctx))),
    optimistic: m.optimistic && ((ctx, input) => m.optimistic!(withState(ctx), input)),
    deferred: m.deferred && ((ctx, input) => m.deferred!(withState(ctx), input)),
  });
  const map = <T, U>(record: Record<string, T>, f: (t: T) => U) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
  const { refresh } = domain;
  return {
    ...domain,
    reads: map(domain.reads, (h) => (ctx, input, conn) => h(withState(ctx), input, conn)),
    mutations: map(domain.mutations, mutation),
    changes: map(domain.changes, applier),
    watch: map(domain.watch, watcher),
    follows: {
      stores: map(domain.follows.stores, watcher),
      changes: map(domain.follows.changes, applier),
    },
    offers: map(
      domain.offers,
      (offer): OfferHandler =>
        (ctx, ...args) =>
          offer(withState(ctx), ...args),
    ),
    refresh: refresh && ((ctx, variant) => refresh(withState(ctx), variant)),
  };
}

export type SessionSignal = {
  /** Aborted when the session current now ends (or the worker closes). */
  current(): AbortSignal;
  /** The session may have changed (signed out, another sign-in): cancel the old one's work. */
  check(): void;
  close(): void;
};

/**
 * One AbortController per session: every read's fetch carries its signal, so a sign-out or a
 * closing worker cancels what was in flight for the session instead of waiting for answers
 * nobody may store.
 */
export function createSessionSignal(owner: () => Owner | null): SessionSignal {
  let closed = false;
  let session: string | null | undefined;
  let controller = new AbortController();
  const sync = () => {
    const id = owner()?.session_id ?? null;
    if (id === session) return;
    if (session !== undefined) controller.abort();
    session = id;
    controller = new AbortController();
    if (closed) controller.abort();
  };
  return {
    current() {
      sync();
      return controller.signal;
    },
    check() {
      if (session !== undefined) sync();
    },
    close() {
      closed = true;
      controller.abort();
    },
  };
}

/** Every domain fetches again what it caches forever (on sign-in, after a feed reset). */
export const refreshDomains = async (
  domains: readonly WorkerDomain[],
  ctx: DomainContext,
  variant: Variant,
) => {
  await Promise.all(domains.map((domain) => domain.refresh?.(ctx, variant)));
};
