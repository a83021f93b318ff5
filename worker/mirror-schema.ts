import { unwrap, wrap, type IDBPDatabase } from 'idb';

/**
 * The mirror's schema: which stores exist, their key paths and indexes. Stores come only from
 * specs (the mirror's own core stores plus what each domain declares); the IndexedDB version is
 * derived from them, and an upgrade reconciles the database with the specs in place.
 */

export type IndexSpec = { keyPath: string | string[]; unique?: boolean; multiEntry?: boolean };

export type StoreSpec = {
  /** null: out-of-line keys (the record's key is given on put, like 'kv'). */
  keyPath: string | string[] | null;
  indexes?: Record<string, IndexSpec>;
  /** Bumped by the declaring domain whenever its key path or indexes change (starts at 1). */
  version: number;
};

export type StoreSpecs<S extends string = string> = Record<S, StoreSpec>;

/** Stores the mirror itself owns; domains add theirs beside these. */
export const CORE_STORES = {
  /** Out-of-line keys: the session, cached answers, kept logs. */
  kv: { keyPath: null, version: 1 },
  /** Queued mutations, sent oldest first. */
  outbox: { keyPath: 'id', indexes: { created_at: { keyPath: 'created_at' } }, version: 1 },
  /** Change-feed cursors, one per user. */
  cursors: { keyPath: null, version: 1 },
} as const satisfies Record<'kv' | 'outbox' | 'cursors', StoreSpec>;

/**
 * The mirror's own store, beside the declared ones: a token per store, replaced by every
 * write transaction that touches it, so a read can tell whether what it remembers about a
 * store (positions, counts) still holds, whichever connection wrote (mirror-positions.ts).
 */
export const TOKENS_STORE = 'mirror_tokens';
const TOKENS_SPEC: StoreSpec = { keyPath: null, version: 1 };

/** The specs the database holds: the declared ones and the mirror's own store. */
export function withOwnStores(specs: StoreSpecs): StoreSpecs {
  if (Object.hasOwn(specs, TOKENS_STORE)) {
    throw new Error(`mirror: "${TOKENS_STORE}" is the mirror's own store; name yours otherwise`);
  }
  return { ...specs, [TOKENS_STORE]: TOKENS_SPEC };
}

/**
 * Version 1 was the schema of hard-coded stores that came before specs. Every spec counts at
 * least 1, so any set of specs lands above it and the first open under specs upgrades.
 */
const BASE_VERSION = 1;

/**
 * The IndexedDB version for `specs`: grows when a store is added or a domain bumps its spec's
 * version, and stays put otherwise, so an unchanged build opens without an upgrade.
 */
export function mirrorVersion(specs: StoreSpecs): number {
  let sum = BASE_VERSION;
  for (const [name, spec] of Object.entries(specs)) {
    if (!Number.isInteger(spec.version) || spec.version < 1) {
      throw new Error(`mirror: store "${name}" needs an integer version >= 1`);
    }
    sum += spec.version;
  }
  return sum;
}

const samePath = (a: string | string[] | null, b: string | string[] | null) =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((part, i) => part === b[i])
    : a === b;

const sameIndex = (index: IDBIndex, spec: IndexSpec) =>
  samePath(index.keyPath, spec.keyPath) &&
  index.unique === Boolean(spec.unique) &&
  index.multiEntry === Boolean(spec.multiEntry);

/**
 * Brings the database to `specs` inside its versionchange transaction: creates missing stores,
 * recreates a store whose key path changed (its records could not be kept under the new key;
 * the mirror refetches what it mirrors), drops undeclared stores and indexes, and adds declared
 * indexes to existing stores (IndexedDB fills them from the records already there). A new
 * unique index that existing records violate aborts the upgrade, so the open fails loudly.
 */
export function reconcile(db: IDBDatabase, tx: IDBTransaction, specs: StoreSpecs): void {
  for (const name of Array.from(db.objectStoreNames)) {
    if (!Object.hasOwn(specs, name)) db.deleteObjectStore(name);
  }
  for (const [name, spec] of Object.entries(specs)) {
    let store = db.objectStoreNames.contains(name) ? tx.objectStore(name) : null;
    if (store && !samePath(store.keyPath, spec.keyPath)) {
      db.deleteObjectStore(name);
      store = null;
    }
    store ??= db.createObjectStore(name, spec.keyPath === null ? {} : { keyPath: spec.keyPath });
    const indexes = spec.indexes ?? {};
    for (const indexName of Array.from(store.indexNames)) {
      const wanted = Object.hasOwn(indexes, indexName) ? indexes[indexName] : undefined;
      if (!wanted || !sameIndex(store.index(indexName), wanted)) store.deleteIndex(indexName);
    }
    for (const [indexName, wanted] of Object.entries(indexes)) {
      if (store.indexNames.contains(indexName)) continue;
      store.createIndex(indexName, wanted.keyPath, {
        unique: Boolean(wanted.unique),
        multiEntry: Boolean(wanted.multiEntry),
      });
    }
  }
}

/**
 * Whether an open database has every declared store and index as declared. With `exact`, also
 * nothing else: extra stores or indexes (a newer build's) are tolerated only without it.
 */
export function matches(db: IDBDatabase, specs: StoreSpecs, exact: boolean): boolean {
  const names = Object.keys(specs);
  if (names.some((name) => !db.objectStoreNames.contains(name))) return false;
  if (exact && db.objectStoreNames.length !== names.length) return false;
  if (names.length === 0) return true;
  const tx = db.transaction(names, 'readonly');
  return Object.entries(specs).every(([name, spec]) => {
    const store = tx.objectStore(name);
    const indexes = Object.entries(spec.indexes ?? {});
    if (!samePath(store.keyPath, spec.keyPath)) return false;
    if (exact && store.indexNames.length !== indexes.length) return false;
    return indexes.every(
      ([indexName, wanted]) =>
        store.indexNames.contains(indexName) && sameIndex(store.index(indexName), wanted),
    );
  });
}

const MAX_UPGRADES = 3;

function openAt(factory: IDBFactory, name: string, version: number | undefined, specs: StoreSpecs) {
  const request = version === undefined ? factory.open(name) : factory.open(name, version);
  request.addEventListener('upgradeneeded', () => {
    if (version === undefined) return; // A peek at the current version changes nothing.
    reconcile(request.result, request.transaction as IDBTransaction, specs);
  });
  return wrap(request) as unknown as Promise<IDBPDatabase>;
}

/**
 * Opens the database at `mirrorVersion(specs)`, upgrading it when the specs changed:
 * - below that version, the upgrade reconciles the database with the specs;
 * - at it, the database must match the specs exactly; if not (a spec changed without its
 *   version, or one store removed while another was bumped by as much), it is upgraded one step
 *   past its version;
 * - above it (a newer build upgraded it, or such a step did), it is used as it is if it has
 *   every declared store and index, and upgraded one step past its version if it does not.
 */
export async function openDatabase(
  factory: IDBFactory,
  name: string,
  specs: StoreSpecs,
): Promise<IDBPDatabase> {
  const target = mirrorVersion(specs);
  let db: IDBPDatabase;
  try {
    db = await openAt(factory, name, target, specs);
  } catch (error) {
    if ((error as DOMException | null)?.name !== 'VersionError') throw error;
    db = await openAt(factory, name, undefined, specs);
  }
  for (let step = 0; !matches(unwrap(db), specs, db.version === target); step += 1) {
    const version = db.version;
    db.close();
    if (step === MAX_UPGRADES) throw new Error(`mirror: "${name}" v${version} misses its stores`);
    db = await openAt(factory, name, version + 1, specs);
  }
  return db;
}
