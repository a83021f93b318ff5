import type { StoreName } from '../contract/domains';
import type { WorkerEvent } from '../contract/worker-api';
import { ApiError } from './api-client';
import { sessionChanged } from './api-errors';
import type { Changes, Mirror, PatchItem } from './mirror';
import type { StoreWatcher } from './registry';
import type { Owner } from './session';

/** How a read fetches: in the background (no logout if the token is gone) and cancellable. */
export type FetchOptions = { background: boolean; signal: AbortSignal };

/** One cached answer: how to read it from the mirror and how to fetch it as mirror writes. */
export type CachedRead<T, S extends string = string> = {
  /** Names the answer: concurrent reads of one session share one request. */
  key: string;
  read(): Promise<T | undefined>;
  fetch(options: FetchOptions): Promise<PatchItem<S>[]>;
};

/**
 * The read machinery every domain uses. Reads answer from the mirror and revalidate from the
 * server; an answer is written only while the session that asked for it is the stored one
 * (the Owner guard, checked in the write's own transaction), and tabs hear which keys of which
 * store changed, from the mirror's own account of what it wrote.
 */
export type ReadKit<S extends string = string> = {
  /** The mirrored answer with no revalidation (cached forever); nothing mirrored: fetched. */
  cached<T>(read: CachedRead<T, S>): Promise<T>;
  /** The mirrored answer now, revalidated in the background; nothing mirrored: fetched. */
  swr<T>(read: CachedRead<T, S>): Promise<T>;
  /**
   * Fetches, stores and answers what the mirror then holds. `announce`: tell the tabs what
   * changed (not for a first answer its caller is waiting for). Rejects with ApiError 401
   * 'session_changed' when the session ended before the answer was stored.
   */
  refetch<T>(
    read: CachedRead<T, S>,
    options: { background: boolean; announce: boolean },
  ): Promise<T>;
  /** One run of `work` per key and session at a time; later callers share it. */
  once<T>(key: string, work: (owner: Owner) => Promise<T>): Promise<T>;
  /**
   * Writes server data for `owner` and (unless `announce` is false) tells the tabs what
   * changed; null when its session has ended.
   */
  store(items: PatchItem<S>[], owner: Owner, announce?: boolean): Promise<Changes<S> | null>;
  /** Records of a domain store changed (null: all of it): tell every tab. */
  announce(store: S, keys: string[] | null): void;
  announceChanges(changes: Changes<S>): void;
};

export function createReads(deps: {
  mirror: Promise<Mirror<string>>;
  owner: () => Owner | null;
  /** The current session's cancel signal. */
  signal: () => AbortSignal;
  /** The stores tabs hear about (the domains'); writes to others (kv, cursors) stay quiet. */
  domainStores: ReadonlySet<string>;
  watchers: ReadonlyMap<string, readonly StoreWatcher<string>[]>;
  emit: (event: WorkerEvent) => void;
  track: (work: Promise<unknown>) => void;
}): ReadKit<string> {
  const inflight = new Map<string, Promise<unknown>>();

  const once = <T>(key: string, work: (owner: Owner) => Promise<T>): Promise<T> => {
    const owner = deps.owner();
    if (!owner) return Promise.reject(new ApiError(401, 'no_token', `${key}: not signed in`));
    // Per session: a new user never shares a request made for the previous one.
    const id = `${owner.session_id}\u0000${key}`;
    const existing = inflight.get(id) as Promise<T> | undefined;
    if (existing) return existing;
    const started = work(owner).finally(() => inflight.delete(id));
    inflight.set(id, started);
    return started;
  };

  const announce = (store: string, keys: string[] | null) => {
    if (!deps.domainStores.has(store) || keys?.length === 0) return;
    // Domain stores are the contract's StoreName, or a registered domain's own (tests).
    deps.emit({ type: 'changed', store: store as StoreName, keys });
    for (const watcher of deps.watchers.get(store) ?? []) {
      deps.track(Promise.resolve(watcher(keys, { mirror: deps.mirror, emit: deps.emit })));
    }
  };
  const announceChanges = (changes: Changes<string>) => {
    for (const [store, keys] of changes) announce(store, keys);
  };

  const store = async (items: PatchItem<string>[], owner: Owner, tell = true) => {
    const mirror = await deps.mirror;
    const changes = await mirror.apply(items, owner.guard);
    if (changes) {
      if (tell) announceChanges(changes);
      return changes;
    }
    // Nothing written: nothing differed, or the guard refused (the session ended).
    const holds = owner.guard.holds(await mirror.get('kv', owner.guard.key));
    return holds ? (new Map() as Changes<string>) : null;
  };

  const refetch = <T>(
    read: CachedRead<T>,
    options: { background: boolean; announce: boolean },
  ): Promise<T> =>
    once(read.key, async (owner) => {
      const items = await read.fetch({ background: options.background, signal: deps.signal() });
      if (!(await store(items, owner, options.announce))) throw sessionChanged(read.key);
      const answer = await read.read();
      if (answer === undefined) {
        throw new ApiError(0, 'not_mirrored', `${read.key}: the answer was not kept`);
      }
      return answer;
    });

  return {
    async cached(read) {
      const cached = await read.read();
      if (cached !== undefined) return cached;
      return refetch(read, { background: false, announce: false });
    },
    async swr(read) {
      const cached = await read.read();
      if (cached === undefined) return refetch(read, { background: false, announce: false });
      deps.track(
        refetch(read, { background: true, announce: true }).catch(() => {
          // Offline, or signed out meanwhile: the mirrored answer stands.
        }),
      );
      return cached;
    },
    refetch,
    once,
    store,
    announce,
    announceChanges,
  };
}
