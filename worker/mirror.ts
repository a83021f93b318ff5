import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { Notification } from '../contract/user';

/**
 * The IndexedDB mirror: what the worker knows locally. Reads answer from here at once; the
 * outbox and the change-feed pull keep it converging with the server. Stores that later issues
 * fill exist from the start so adding a feature does not need a schema upgrade.
 */

/** Entity stores later issues fill (feeds/boards, result cards, search, groups, ...). */
export const ENTITY_STORES = [
  'feeds',
  'boards',
  'cards',
  'search_results',
  'channels',
  'tags',
  'notebooks',
  'assistant_sessions',
  'assistant_messages',
] as const;
export type EntityStore = (typeof ENTITY_STORES)[number];

export type StoreName = 'kv' | 'outbox' | 'cursors' | 'notifications' | EntityStore;

/** Stores whose records carry their own key (`id`, or `key` for search results). */
const KEY_PATHS: Partial<Record<StoreName, string>> = {
  outbox: 'id',
  notifications: 'id',
  search_results: 'key',
  ...Object.fromEntries(
    ENTITY_STORES.filter((s) => s !== 'search_results').map((s) => [s, 'id'] as const),
  ),
};

type Entity = Record<string, unknown>;

export interface MirrorSchema extends DBSchema {
  kv: { key: string; value: unknown };
  outbox: { key: string; value: Entity & { id: string; created_at: number } };
  cursors: { key: string; value: number };
  notifications: { key: string; value: Notification; indexes: { created_at: string } };
  feeds: { key: string; value: Entity };
  boards: { key: string; value: Entity };
  cards: { key: string; value: Entity };
  search_results: { key: string; value: Entity };
  channels: { key: string; value: Entity };
  tags: { key: string; value: Entity };
  notebooks: { key: string; value: Entity };
  assistant_sessions: { key: string; value: Entity };
  assistant_messages: { key: string; value: Entity; indexes: { session_id: string } };
}

export const MIRROR_VERSION = 1;

/** One write: `value` undefined deletes the record. */
export type PatchItem = { store: StoreName; key: string; value?: unknown };

/**
 * A condition on one 'kv' record, checked inside the transaction of a write: server data is
 * written only while the session that asked for it is still the stored one (see session.ts).
 */
export type WriteGuard = { key: string; holds(value: unknown): boolean };

/** What a `transact` callback may do; it must await nothing but these (IndexedDB rules). */
export type MirrorTx = {
  get<T = unknown>(store: StoreName, key: string): Promise<T | undefined>;
  keys(store: StoreName): Promise<string[]>;
  put(item: PatchItem): void;
  clear(store: StoreName): void;
};

/** Every store's records, for the CLI's state file. */
export type MirrorDump = Partial<Record<StoreName, Array<{ key: string; value: unknown }>>>;

export type Mirror = {
  readonly db: IDBPDatabase<MirrorSchema>;
  get<T = unknown>(store: StoreName, key: string): Promise<T | undefined>;
  getAll<T = unknown>(store: StoreName): Promise<T[]>;
  keys(store: StoreName): Promise<string[]>;
  /**
   * Applies every item in one transaction; with a guard, only if it holds (answers whether the
   * items were written).
   */
  write(items: PatchItem[], guard?: WriteGuard): Promise<boolean>;
  /** Like write; answers whether any record actually changed (and was written). */
  apply(items: PatchItem[], guard?: WriteGuard): Promise<boolean>;
  /**
   * Replaces one record with `next(current)` (undefined deletes it) in one transaction;
   * answers the record it replaced.
   */
  update<T>(
    store: StoreName,
    key: string,
    next: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined>;
  /** Runs `work` in one read-write transaction over `stores`. */
  transact<T>(stores: StoreName[], work: (tx: MirrorTx) => Promise<T>): Promise<T>;
  /** The current values of the keys `items` touch: the patch that undoes them. */
  snapshot(items: PatchItem[]): Promise<PatchItem[]>;
  clear(stores: StoreName[]): Promise<void>;
  dump(): Promise<MirrorDump>;
  restore(dump: MirrorDump): Promise<void>;
  close(): void;
};

const ALL_STORES: StoreName[] = ['kv', 'outbox', 'cursors', 'notifications', ...ENTITY_STORES];

/** Like idb's openDB, over an injected IDBFactory (fake-indexeddb in Node). */
export async function openMirror(factory: IDBFactory, name: string): Promise<Mirror> {
  const request = factory.open(name, MIRROR_VERSION);
  request.addEventListener('upgradeneeded', () => {
    const raw = request.result;
    for (const store of ALL_STORES) {
      if (raw.objectStoreNames.contains(store)) continue;
      const keyPath = KEY_PATHS[store];
      const created = raw.createObjectStore(store, keyPath ? { keyPath } : undefined);
      if (store === 'notifications') created.createIndex('created_at', 'created_at');
      if (store === 'assistant_messages') created.createIndex('session_id', 'session_id');
    }
  });
  const db = (await wrap(request)) as unknown as IDBPDatabase<MirrorSchema>;
  // A newer worker build wants to upgrade: step aside rather than block it.
  db.addEventListener('versionchange', () => db.close());
  return createMirror(db);
}

function createMirror(db: IDBPDatabase<MirrorSchema>): Mirror {
  // idb's typed API wants literal store names; the mirror's helpers are generic over them.
  const loose = db as unknown as IDBPDatabase;

  const transact = async <T>(stores: StoreName[], work: (tx: MirrorTx) => Promise<T>) => {
    const tx = loose.transaction([...new Set(stores)], 'readwrite');
    const view: MirrorTx = {
      get: async <V>(store: StoreName, key: string) =>
        (await tx.objectStore(store).get(key)) as V | undefined,
      keys: async (store) => (await tx.objectStore(store).getAllKeys()).map(String),
      put(item) {
        const store = tx.objectStore(item.store);
        if (item.value === undefined) void store.delete(item.key);
        else if (KEY_PATHS[item.store]) void store.put(item.value);
        else void store.put(item.value, item.key);
      },
      clear(store) {
        void tx.objectStore(store).clear();
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

  const write = async (items: PatchItem[], guard?: WriteGuard) => {
    if (items.length === 0) return true;
    const stores = items.map((i) => i.store);
    return transact(guard ? [...stores, 'kv'] : stores, async (tx) => {
      if (guard && !guard.holds(await tx.get('kv', guard.key))) return false;
      for (const item of items) tx.put(item);
      return true;
    });
  };

  const snapshot = async (items: PatchItem[]) => {
    if (items.length === 0) return [];
    const stores = [...new Set(items.map((i) => i.store))];
    const tx = loose.transaction(stores, 'readonly');
    const seen = new Set<string>();
    const undo: PatchItem[] = [];
    for (const item of items) {
      const id = `${item.store}\u0000${item.key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      undo.push({
        store: item.store,
        key: item.key,
        value: await tx.objectStore(item.store).get(item.key),
      });
    }
    await tx.done;
    return undo;
  };

  const apply = async (items: PatchItem[], guard?: WriteGuard) => {
    const before = await snapshot(items);
    const differs = items.some((item) => {
      const old = before.find((b) => b.store === item.store && b.key === item.key);
      return JSON.stringify(old?.value) !== JSON.stringify(item.value);
    });
    return differs && (await write(items, guard));
  };

  return {
    db,
    apply,
    get: async <T>(store: StoreName, key: string) => (await loose.get(store, key)) as T | undefined,
    getAll: async <T>(store: StoreName) => (await loose.getAll(store)) as T[],
    keys: async (store) => (await loose.getAllKeys(store)).map(String),
    write,
    snapshot,
    transact,
    update: <T>(store: StoreName, key: string, next: (current: T | undefined) => T | undefined) =>
      transact([store], async (tx) => {
        const current = await tx.get<T>(store, key);
        tx.put({ store, key, value: next(current) });
        return current;
      }),
    async clear(stores) {
      const tx = loose.transaction(stores, 'readwrite');
      await Promise.all([...stores.map((s) => tx.objectStore(s).clear()), tx.done]);
    },
    async dump() {
      const out: MirrorDump = {};
      const tx = loose.transaction(ALL_STORES, 'readonly');
      for (const store of ALL_STORES) {
        const keys = await tx.objectStore(store).getAllKeys();
        const values = await tx.objectStore(store).getAll();
        if (keys.length)
          out[store] = keys.map((key, i) => ({ key: String(key), value: values[i] }));
      }
      await tx.done;
      return out;
    },
    async restore(dump) {
      const items: PatchItem[] = [];
      for (const store of ALL_STORES) {
        for (const record of dump[store] ?? []) items.push({ store, ...record });
      }
      await write(items);
    },
    close: () => db.close(),
  };
}
