import type { z } from 'zod';
import type { DomainContract, EndpointDef, OpDef } from '../contract/define';
import type { ChangeEntity, changeSchemas, StoreName } from '../contract/domains';
import type { Variant, WorkerEvent } from '../contract/worker-api';
import type { ApiClient } from './api-client';
import type { Clock } from './deps';
import type { Mirror, PatchItem, StoreSpec } from './mirror';
import type { ReadKit } from './reads';
import type { Owner } from './session';
import type { Connection } from './tabs';

/**
 * The shape of a worker domain (worker/domains/<name>.ts): the mirror stores it keeps, the
 * ops it answers (reads), the mutations it sends through the outbox and how its change-feed
 * entities land in the mirror. Everything is typed from the domain's contract: a store, an op
 * or a change entity the contract does not declare does not compile. The worker core (reads,
 * outbox, sync, op dispatch, the wipe on sign-out) runs every domain from the registry
 * (registry-build.ts) and knows none by name.
 */

/** The stores a domain's code may touch: its own, plus 'kv' (out-of-line keys, the session's). */
export type StoreOf<C extends DomainContract> = C['stores'][number] | 'kv';

/**
 * What domains offer each other: a function of the offering domain, run with that domain's own
 * context (its stores, its state), so the asking domain knows none of its stores. Each offering
 * domain declares its entries beside its definition, by augmenting this interface
 * (`declare module '../registry' { interface DomainOffers { 'read.states'(...): ... } }`), and
 * gives them in its parts' `offers`; `ctx.ask(name, ...args)` is typed from the declaration.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the domains' declarations
export interface DomainOffers {}

type OfferArgs<K extends keyof DomainOffers> = DomainOffers[K] extends (...args: infer A) => unknown
  ? A
  : never;
type OfferResult<K extends keyof DomainOffers> = DomainOffers[K] extends (
  ...args: never[]
) => infer R
  ? R
  : never;

/** What a domain's code is handed: the mirror, the client and the shared read machinery. */
export type DomainContext<S extends string = string> = {
  mirror: Promise<Mirror<S>>;
  client: ApiClient;
  clock: Clock;
  /** PRODUCT: the `{product}` of ids the server names, like `{product}_universe`. */
  product: string;
  /** The session the work is for; its answers are written only while it lasts. */
  owner(): Owner | null;
  /** Aborted when the current session ends or the worker closes: pass it to every fetch. */
  signal(): AbortSignal;
  reads: ReadKit<S>;
  /** To every tab. */
  emit(event: WorkerEvent): void;
  /**
   * To one connection only (an op's `conn`: the tab that asked); false once it is gone, so a
   * domain keeping connections (a chat's watchers) forgets it.
   */
  deliver(conn: Connection, event: WorkerEvent): boolean;
  /** Background work the worker waits for on close (its failure is logged, not thrown). */
  track(work: Promise<unknown>): void;
  /** The variant background work carries (a visible tab's). */
  variant(): Variant;
  /** True the first time in this session (the analytics report goes once per session). */
  claimAnalytics(): Promise<boolean>;
  /** Another domain's offer (DomainOffers), run with that domain's context and state. */
  ask<K extends keyof DomainOffers>(name: K, ...args: OfferArgs<K>): OfferResult<K>;
};

/**
 * What a domain's own code is handed: the context, and the domain's state in this workspace
 * (`state(ctx)` of its parts, made once per workspace when first needed).
 */
export type DomainCtx<S extends string = string, St = unknown> = unknown extends St
  ? // The core's view (the state erased): the registry adds the state (registry-runtime.ts).
    DomainContext<S>
  : DomainContext<S> & { readonly state: St };

/** An op answered by the domain (a read, or anything that is not an outbox mutation). */
export type OpHandler<S extends string, I, O, St = unknown> = (
  ctx: DomainCtx<S, St>,
  input: I,
  conn: Connection,
) => Promise<O> | O;

/**
 * A mutation: written to the outbox with its optimistic effect, sent to `endpoint` with the
 * input as its body, then confirmed (the server's answer written) or rolled back (the mirror
 * records the optimistic writes replaced are put back).
 */
export type Mutation<
  S extends string,
  I,
  O,
  E extends string = string,
  R = unknown,
  St = unknown,
> = {
  /** An endpoint of the domain's contract. */
  endpoint: E;
  /** The `{name}` segments of the endpoint's path, from the input (`/boards/{id}`). */
  params?(input: I): Record<string, string>;
  /** The JSON body sent, when it is not the input itself (an input that also names the path). */
  body?(input: I): unknown;
  /**
   * Entries with the same key are sent in order (one waits while the one before it backs off);
   * entries with different keys are independent. Default: one queue per op. null: every entry
   * is independent.
   */
  orderKey?(input: I): string | null;
  /** Whether the call goes to the outbox at all (false: it is dropped, answering undefined). */
  admit?(ctx: DomainCtx<S, St>): Promise<boolean> | boolean;
  /** Mirror writes that show the change at once. */
  optimistic?(ctx: DomainCtx<S, St>, input: I): Promise<PatchItem<S>[]> | PatchItem<S>[];
  /** The server confirmed: the mirror writes of its answer (parsed with the endpoint's schema). */
  confirm?(input: I, result: R): PatchItem<S>[];
  /** The op's output once confirmed (undefined when absent). */
  output?(result: R): O;
  /** The op's output while the send waits for the network (the optimistic view). */
  deferred?(ctx: DomainCtx<S, St>, input: I): Promise<O> | O;
};

/** What the change-feed pull gives an entity's applier: the record's id and its new data. */
export type EntityChange<T> = { op: 'upsert'; id: string; data: T } | { op: 'delete'; id: string };

/**
 * A change-feed pull's view of the mirror: reads see the writes of earlier changes in the same
 * pull (kept in a map, so no scan), and writes are collected and land together with the cursor.
 */
export type ChangeTx<S extends string, St = unknown> = {
  get<T = unknown>(store: S, key: string): Promise<T | undefined>;
  /** value undefined deletes the record. */
  put(store: S, key: string, value: unknown): void;
  /**
   * Work that needs more than the change's record (a fetch, a range of records), run with the
   * domain's context once the pull has stored the page (in the background, never awaited by
   * the pull).
   */
  after(work: (ctx: DomainCtx<S, St>) => Promise<unknown> | void): void;
};

/**
 * Writes one change into the mirror. An upsert whose data does not match the contract's schema
 * reaches the applier as a delete: the record goes, and the next read fetches it again.
 */
export type ChangeApplier<S extends string, T, St = unknown> = (
  change: EntityChange<T>,
  tx: ChangeTx<S, St>,
) => Promise<void> | void;

/** Told which records of a store changed (null: all), to send tabs events beyond 'changed'. */
export type StoreWatcher<S extends string, St = unknown> = (
  keys: string[] | null,
  ctx: {
    mirror: Promise<Mirror<S>>;
    emit(event: WorkerEvent): void;
    /** The domain's state in this workspace; undefined while nothing of the domain has run. */
    state?: St;
  },
) => Promise<void> | void;

type Ops<C extends DomainContract> = C['ops'];
type In<D> = D extends OpDef ? z.output<D['input']> : never;
type Out<D> = D extends OpDef ? z.infer<D['output']> : never;
type Endpoints<C extends DomainContract> = C['endpoints'];
/** What an endpoint answers, as the outbox parsed it with the endpoint's response schema. */
type Answer<D> = D extends EndpointDef ? z.output<D['response']> : never;

/** A mutation of op `D`, sent to one of the contract's endpoints (its answer typed from it). */
type DomainMutation<C extends DomainContract, D, St> = {
  [E in keyof Endpoints<C> & string]: Mutation<
    StoreOf<C>,
    In<D>,
    Out<D>,
    E,
    Answer<Endpoints<C>[E]>,
    St
  >;
}[keyof Endpoints<C> & string];

/** The data of change entity `K` of any domain. */
type ChangeData<K extends ChangeEntity> = z.output<(typeof changeSchemas)[K]>;

/** A domain's parts, typed from its contract `C`; `St` is its per-workspace state. */
export type DomainParts<C extends DomainContract, St = undefined> = {
  /**
   * The domain's state in one workspace (chats streaming, feeds backfilling, searches read):
   * made from the workspace's context the first time the domain runs there, and handed to
   * every part as `ctx.state`.
   */
  state?(ctx: DomainContext<StoreOf<C>>): St;
  /** Every store the contract names, with its key path, indexes and spec version. */
  stores: { [K in C['stores'][number]]: StoreSpec };
  reads?: { [K in keyof Ops<C>]?: OpHandler<StoreOf<C>, In<Ops<C>[K]>, Out<Ops<C>[K]>, St> };
  mutations?: { [K in keyof Ops<C>]?: DomainMutation<C, Ops<C>[K], St> };
  /** Every change entity the contract names. */
  changes: {
    [K in keyof C['changes']]: ChangeApplier<StoreOf<C>, z.output<C['changes'][K]>, St>;
  };
  watch?: { [K in C['stores'][number]]?: StoreWatcher<StoreOf<C>, St> };
  /**
   * Other domains' changes this domain follows, so a domain never reaches into another's
   * stores: `stores`, told when another domain's store changed (the read state moved: the feed
   * rows showing it are re-read); `changes`, a change-feed entity of another domain, applied
   * after its own domain applied it.
   */
  follows?: {
    stores?: { [K in Exclude<StoreName, C['stores'][number]>]?: StoreWatcher<StoreOf<C>, St> };
    changes?: {
      [K in Exclude<ChangeEntity, keyof C['changes']>]?: ChangeApplier<
        StoreOf<C>,
        ChangeData<K>,
        St
      >;
    };
  };
  /**
   * What the domain offers other domains (declared in DomainOffers), run with its own context:
   * another domain asks (`ctx.ask`) instead of reading the stores behind it.
   */
  offers?: {
    [K in keyof DomainOffers]?: (
      ctx: DomainCtx<StoreOf<C>, St>,
      ...args: OfferArgs<K>
    ) => OfferResult<K>;
  };
  /**
   * What the domain fetches again on sign-in and after a change-feed reset: data cached
   * forever, which no read would otherwise refetch.
   */
  refresh?(ctx: DomainCtx<StoreOf<C>, St>, variant: Variant): Promise<void>;
};

/** An offer as the registry runs it (types erased, checked by `defineWorkerDomain`). */
export type OfferHandler = (ctx: DomainCtx, ...args: unknown[]) => unknown;

/**
 * A domain as the registry runs it: its contract beside its parts, with the types erased (the
 * registry holds domains of different contracts in one list; `defineWorkerDomain` checked them).
 * Its parts take the context with the domain's state; the registry (made per workspace) binds
 * them to the workspace's state (registry-build.ts).
 */
export type WorkerDomain = {
  contract: DomainContract;
  state?(ctx: DomainContext): unknown;
  stores: Record<string, StoreSpec>;
  reads: Record<string, OpHandler<string, unknown, unknown>>;
  mutations: Record<string, Mutation<string, unknown, unknown>>;
  changes: Record<string, ChangeApplier<string, unknown>>;
  watch: Record<string, StoreWatcher<string>>;
  follows: {
    stores: Record<string, StoreWatcher<string>>;
    changes: Record<string, ChangeApplier<string, unknown>>;
  };
  offers: Record<string, OfferHandler>;
  refresh?(ctx: DomainCtx, variant: Variant): Promise<void>;
};

/** A worker domain from its contract (contract/<name>.ts) and its parts. */
export function defineWorkerDomain<const C extends DomainContract, St = undefined>(
  contract: C,
  parts: DomainParts<C, St>,
): WorkerDomain {
  // The parts were checked against C above; the registry runs them over plain strings.
  const loose = parts as unknown as Partial<Omit<WorkerDomain, 'follows'>> & {
    follows?: Partial<WorkerDomain['follows']>;
  };
  return {
    contract,
    state: loose.state,
    stores: loose.stores ?? {},
    reads: loose.reads ?? {},
    mutations: loose.mutations ?? {},
    changes: loose.changes ?? {},
    watch: loose.watch ?? {},
    follows: { stores: loose.follows?.stores ?? {}, changes: loose.follows?.changes ?? {} },
    offers: loose.offers ?? {},
    refresh: loose.refresh,
  };
}

/** An endpoint a mutation sends to, resolved from the contract's catalogue or its domain's. */
export type ResolvedEndpoint = { name: string; def: EndpointDef };
