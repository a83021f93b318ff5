import { dequal } from 'dequal';
import { unwrap, type IDBPDatabase } from 'idb';
import type { StoreName as DomainStoreName } from '../contract/domains';
import { keyRange, type KeyBounds, type MirrorReads } from './mirror-query';
import { createMirrorReads, type ReadsContext } from './mirror-reads';
import { openDatabase, TOKENS_STORE, withOwnStores, type StoreSpecs } from './mirror-schema';

export { CORE_STORES, mirrorVersion } from './mirror-schema';
export type { IndexSpec, StoreSpec, StoreSpecs } from './mirror-schema';
export type {
  CountQuery,
  KeyBounds,
  MirrorReads,
  RangeQuery,
  WindowQuery,
  WindowRows,
} from './mirror-query';

/**
 * The IndexedDB mirror: what the worker knows locally. Reads answer from here at once; the
 * outbox and the change-feed pull keep it converging with the server. Its stores come from
 * specs (CORE_STORES plus each domain's), and the database upgrades itself when they change.
 */

/** The mirror's own stores plus the domains' (the names tabs hear in 'changed' events). */
export type StoreName = 'kv' | 'outbox' | 'cursors' | DomainStoreName;

/**
 * One write: `value` undefined deletes the record. `key` is the record's primary key (for a
 * store with a key path, the one inside `value`). The mirror's primary keys are strings.
 */
export type PatchItem<S extends string = StoreName> = { store: S; key: string; value?: unknown };

/** The keys whose records a write actually changed, per store. */
export type Changes<S extends string = StoreName> = Map<S, string[]>;

/**
 * A condition on one 'kv' record, checked inside the transaction of a write: server data is
 * written only while the session that asked for it is still the stored one (see session.ts).
 */
export type WriteGuard = { key: string; holds(value: unknown): boolean };

/** What a `transact` callback may do; it must await nothing but these (IndexedDB rules). */
export type MirrorTx<S extends string = StoreName> = {
  get<T = unknown>(store: S, key: string): Promise<T | undefined>;
  keys(store: S): Promise<string[]>;
  /** The records (at most `limit`) an index holds within `bounds`, in one request. */
  indexRange<T = unknown>(store: S, index: string, bounds: KeyBounds, limit: number): Promise<T[]>;
  put(item: PatchItem<S>): void;
  clear(store: S): void;
  /** Deletes every record whose primary key is within `bounds` (one request, no scan). */
  deleteRange(store: S, bounds: KeyBounds): void;
};

/** Every store's records, for the CLI's state file. */
export type MirrorDump<S extends string = StoreName> = Partial<
  Record<S, Array<{ key: string; value: unknown }>>
>;

export type Mirror<S extends string = StoreName> = MirrorReads<S> & {
  /** The declared stores, as opened. */
  readonly stores: readonly S[];
  get<T = unknown>(store: S, key: string): Promise<T | undefined>;
  /** The records of `keys` (undefined where none), read in one transaction. */
  getMany<T = unknown>(store: S, keys: readonly string[]): Promise<(T | undefined)[]>;
  getAll<T = unknown>(store: S): Promise<T[]>;
  keys(store: S): Promise<string[]>;
  /**
   * Applies every item in one transaction; with a guard, only if it holds (answers whether the
   * items were written).
   */
  write(items: PatchItem<S>[], guard?: WriteGuard): Promise<boolean>;
  /**
   * Like write, but writes only the records whose value differs (deep equality) from the
   * stored one, reading and writing in one transaction. Answers the keys that changed per
   * store, or null when nothing was written (no record differed, or the guard did not hold).
   * With several items on one key, the last one wins.
   */
  apply(items: PatchItem<S>[], guard?: WriteGuard): Promise<Changes<S> | null>;
  /**
   * Replaces one record with `next(current)` (undefined deletes it) in one transaction;
   * answers the record it replaced.
   */
  update<T>(
    store: S,
    key: string,
    next: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined>;
  /** Runs `work` in one read-write transaction over `stores`. */
  transact<T>(stores: S[], work: (tx: MirrorTx<S>) => Promise<T>): Promise<T>;
  /** The current values of the keys `items` touch (each once): the patch that undoes them. */
  snapshot(items: PatchItem<S>[]): Promise<PatchItem<S>[]>;
  clear(stores: S[]): Promise<void>;
  dump(): Promise<MirrorDump<S>>;
  restore(dump: MirrorDump<S>): Promise<void>;
  close(): void;
};

export type MirrorOptions = {
  /**
   * The IDBKeyRange class of the factory's implementation; the global one by default (which
   * `fake-indexeddb/auto` provides in Node).
   */
  keyRange?: typeof IDBKeyRange;
  /**
   * How backwards cursors reach a remembered position (see ReadsContext). By default by range,
   * except on fake-indexeddb's factory (FDBFactory).
   */
  seekByRange?: boolean;
};

/**
 * Opens the mirror over an injected IDBFactory (fake-indexeddb in Node) with `stores` (the
 * core stores and the domains'), upgrading the database when their specs changed
 * (mirror-schema.ts says how the version follows them).
 */
export async function openMirror<S extends string = StoreName>(
  factory: IDBFactory,
  name: string,
  stores: StoreSpecs<S>,
  options: MirrorOptions = {},
): Promise<Mirror<S>> {
  const ranges = options.keyRange ?? globalThis.IDBKeyRange;
  if (!ranges) throw new Error('mirror: no IDBKeyRange (pass options.keyRange)');
  const db = await openDatabase(factory, name, withOwnStores(stores));
  // A newer worker build wants to upgrade: step aside rather than block it.
  db.addEventListener('versionchange', () => db.close());
  return createMirror(db, stores, {
    db: () => unwrap(db),
    ranges,
    cmp: (a, b) => factory.cmp(a, b),
    tokens: TOKENS_STORE,
    seekByRange: options.seekByRange ?? factory.constructor.name !== 'FDBFactory',
  });
}

/** A token no other connection's write will have written: this instance's id and a count. */
const instance = Math.random().toString(36).slice(2, 10);
let written = 0;

function createMirror<S extends string>(
  db: IDBPDatabase,
  specs: StoreSpecs<S>,
  reads: ReadsContext,
): Mirror<S> {
  const names = Object.keys(specs) as S[];
  const inline = (store: S) => {
    if (!Object.hasOwn(specs, store)) throw new Error(`mirror: no store "${store}"`);
    return specs[store].keyPath !== null;
  };

  const transact = async <T>(stores: S[], work: (tx: MirrorTx<S>) => Promise<T>) => {
    const tx = db.transaction([...new Set(stores), TOKENS_STORE], 'readwrite');
    // Each touched store gets a new token in the same transaction (see mirror-positions.ts).
    const stamped = new Set<S>();
    const stamp = (store: S) => {
      if (stamped.has(store)) return;
      stamped.add(store);
      written += 1;
      void tx.objectStore(TOKENS_STORE).put(`${instance}.${written}`, store);
    };
    const view: MirrorTx<S> = {
      get: async <V>(store: S, key: string) =>
        (await tx.objectStore(store).get(key)) as V | undefined,
      keys: async (store) => (await tx.objectStore(store).getAllKeys()).map(String),
      indexRange: async <V>(store: S, index: string, bounds: KeyBounds, limit: number) =>
        (await tx
          .objectStore(store)
          .index(index)
          .getAll(keyRange(reads.ranges, bounds), limit)) as V[],
      put(item) {
        const store = tx.objectStore(item.store);
        stamp(item.store);
        if (item.value === undefined) void store.delete(item.key);
        else if (inline(item.store)) void store.put(item.value);
        else void store.put(item.value, item.key);
      },
      clear(store) {
        void tx.objectStore(store).clear();
        stamp(store);
      },
      deleteRange(store, range) {
        const bounds = keyRange(reads.ranges, range);
        if (!bounds) throw new Error('mirror: deleteRange needs bounds (clear empties a store)');
        void tx.objectStore(store).delete(bounds);
        stamp(store);
      },
    };
    try {
      const result = await work(view);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished.
      }
      await tx.done.catch(() => {});
      throw error;
    }
  };

  /** `work` in one transaction over `items`' stores, run only while `guard` (if any) holds. */
  const guarded = <T>(
    items: PatchItem<S>[],
    guard: WriteGuard | undefined,
    refused: T,
    work: (tx: MirrorTx<S>) => Promise<T> | T,
  ) => {
    const stores = items.map((i) => i.store);
    return transact(guard ? [...stores, 'kv' as S] : stores, async (tx) => {
      if (guard && !guard.holds(await tx.get('kv' as S, guard.key))) return refused;
      return work(tx);
    });
  };

  const write = async (items: PatchItem<S>[], guard?: WriteGuard) => {
    if (items.length === 0) return true;
    return guarded(items, guard, false, (tx) => {
      for (const item of items) tx.put(item);
      return true;
    });
  };

  /** The items by store and key, the last one on a key winning. */
  const latest = (items: PatchItem<S>[]) => {
    const byKey = new Map<string, PatchItem<S>>();
    for (const item of items) {
      const id = `${item.store}\u0000${item.key}`;
      byKey.delete(id); // Keeps the map in the order of each key's last write.
      byKey.set(id, item);
    }
    return [...byKey.values()];
  };

  const snapshot = async (items: PatchItem<S>[]) => {
    const touched = latest(items);
    if (touched.length === 0) return [];
    const tx = db.transaction([...new Set(touched.map((i) => i.store))], 'readonly');
    const values = await Promise.all(touched.map((i) => tx.objectStore(i.store).get(i.key)));
    await tx.done;
    return touched.map(({ store, key }, i) => ({ store, key, value: values[i] as unknown }));
  };

  const apply = async (items: PatchItem<S>[], guard?: WriteGuard) => {
    const touched = latest(items);
    if (touched.length === 0) return null;
    return guarded(touched, guard, null, async (tx) => {
      const before = await Promise.all(touched.map((i) => tx.get(i.store, i.key)));
      const changes: Changes<S> = new Map();
      touched.forEach((item, i) => {
        if (dequal(before[i], item.value)) return;
        tx.put(item);
        const keys = changes.get(item.store);
        if (keys) keys.push(item.key);
        else changes.set(item.store, [item.key]);
      });
      return changes.size > 0 ? changes : null;
    });
  };

  return {
    ...createMirrorReads<S>(reads),
    stores: names,
    apply,
    get: async <T>(store: S, key: string) => (await db.get(store, key)) as T | undefined,
    async getMany<T>(store: S, keys: readonly string[]) {
      if (keys.length === 0) return [];
      const tx = db.transaction(store, 'readonly');
      const values = await Promise.all(keys.map((key) => tx.store.get(key)));
      await tx.done;
      return values as (T | undefined)[];
    },
    getAll: async <T>(store: S) => (await db.getAll(store)) as T[],
    keys: async (store) => (await db.getAllKeys(store)).map(String),
    write,
    snapshot,
    transact,
    update: <T>(store: S, key: string, next: (current: T | undefined) => T | undefined) =>
      transact([store], async (tx) => {
        const current = await tx.get<T>(store, key);
        tx.put({ store, key, value: next(current) });
        return current;
      }),
    async clear(stores) {
      if (stores.length === 0) return;
      await transact(stores, async (tx) => stores.forEach((store) => tx.clear(store)));
    },
    async dump() {
      const out: MirrorDump<S> = {};
      const tx = db.transaction(names, 'readonly');
      for (const store of names) {
        const [keys, values] = await Promise.all([
          tx.objectStore(store).getAllKeys(),
          tx.objectStore(store).getAll(),
        ]);
        if (keys.length)
          out[store] = keys.map((key, i) => ({ key: String(key), value: values[i] }));
      }
      await tx.done;
      return out;
    },
    async restore(dump) {
      const items: PatchItem<S>[] = [];
      // Stores a dump names but these specs do not declare (an older build's) are skipped.
      for (const store of names) {
        for (const record of dump[store] ?? []) items.push({ store, ...record });
      }
      await write(items);
    },
    close: () => db.close(),
  };
}
