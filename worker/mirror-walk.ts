import { drive, type Drive, type Entry, type Positions, type Taken } from './mirror-positions';
import { keyRange, type KeyBounds, type RangeQuery } from './mirror-query';

/**
 * The walk behind a window deep in a list (mirror-reads.ts): to the query's offset without
 * loading the records before it (a key cursor over a store; through an index, Chromium costs
 * the same either way), from the nearest position an earlier walk left (mirror-positions.ts),
 * then the records it returns.
 */

export const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

export type Direction = 'next' | 'prev';
const reverse = (d: Direction): Direction => (d === 'next' ? 'prev' : 'next');

export type ReadsContext = {
  db: () => IDBDatabase;
  ranges: typeof IDBKeyRange;
  cmp: (a: IDBValidKey, b: IDBValidKey) => number;
  /** The mirror's own store: each store's write token, keyed by store name. */
  tokens: string;
  /**
   * How a backwards ('prev') cursor reaches a remembered entry: by opening on a range that
   * ends at it (`true`: browsers; Chromium's continue() steps back one entry at a time), or
   * by continue() (fake-indexeddb, whose cursors rescan a range from its bound on every step).
   * Forwards, continue() seeks in both.
   */
  seekByRange: boolean;
};

/** What a walk runs with: the mirror's reads context and the positions earlier walks left. */
export type Walk = ReadsContext & { positions: Positions };

/**
 * What identifies a list: store, index, direction, bounds. Bounds that JSON would not tell
 * apart (dates, binary keys) get no id, and so no remembered positions.
 */
export function listId(store: string, query: RangeQuery, d: Direction) {
  const plain = (key: IDBValidKey | undefined): boolean =>
    key === undefined ||
    typeof key === 'string' ||
    typeof key === 'number' ||
    (Array.isArray(key) && key.every(plain));
  if (!plain(query.lower) || !plain(query.upper)) return undefined;
  const { index, lower, upper, lowerOpen, upperOpen } = query;
  return JSON.stringify([store, index, d, lower, upper, !!lowerOpen, !!upperOpen]);
}

/** The store's write token (positions remembered under another one are stale). */
export const tokenOf = async (walk: ReadsContext, tx: IDBTransaction, store: string) =>
  (await done(tx.objectStore(walk.tokens).get(store))) as string | undefined;

/** The query's range; walking backwards from an entry with `seekByRange`, ending at it. */
const rangeFrom = (walk: Walk, query: KeyBounds, entry: Entry | undefined, dir: Direction) =>
  keyRange(
    walk.ranges,
    entry && dir === 'prev' && walk.seekByRange
      ? { ...query, upper: entry.key, upperOpen: false }
      : query,
  );

/**
 * The entries (keys and primary keys) of `take` rows from the query's offset, reached from
 * the start, the nearest anchor on either side, or the end of the range when its count is
 * known, whichever is fewer steps away.
 */
async function entries(
  walk: Walk,
  tx: IDBTransaction,
  store: string,
  query: RangeQuery,
  take: number,
) {
  const { positions } = walk;
  const objectStore = tx.objectStore(store);
  const source = query.index === undefined ? objectStore : objectStore.index(query.index);
  const d = query.direction ?? 'next';
  const offset = query.offset ?? 0;
  const keysOnly = source === objectStore;
  const stamp = offset > 0 ? await tokenOf(walk, tx, store) : undefined;
  const list = positions.list(listId(store, query, d), stamp);
  const counted = positions.list(listId(store, query, 'next'), stamp);
  if (counted && counted.count === undefined) counted.count = query.total;
  const total = counted?.count ?? query.total;
  if (total !== undefined && offset >= total) return [];
  /** A cursor walk in `dir`, leaving an anchor at each landing (`at`: its offset). */
  const go = (
    dir: Direction,
    plan: Omit<Drive, 'direction' | 'cmp' | 'index'>,
    at = (n: number) => n,
    values = false,
  ) => {
    const range = rangeFrom(walk, query, plan.from, dir);
    // A cursor with values is a cursor: drive reads what both have, and the value if any.
    const request = (
      values && !keysOnly ? source.openCursor(range, dir) : source.openKeyCursor(range, dir)
    ) as IDBRequest<IDBCursor | null>;
    return drive(request, {
      ...plan,
      direction: dir,
      cmp: walk.cmp,
      index: !keysOnly,
      landed: (n, entry) => list && positions.record(list, { offset: at(n), ...entry }),
    });
  };
  /** The rows from the entry `reach` finds: through an index, by a cursor with values. */
  const rowsFrom = async (reach: () => Promise<Taken[] | null>) => {
    const [at] = (await reach()) ?? [];
    return at ? go(d, { from: at, skip: 0, take }, undefined, true) : null;
  };
  /**
   * Forwards over `skip` entries, then the rows. Over a store one key cursor does both (the
   * records come after, by one getAll); through an index, keys reach the offset (skipping
   * over records costs more) and a second cursor loads the rows from there.
   */
  const forwards = (plan: { from?: Entry; skip: number }, at?: (n: number) => number) =>
    keysOnly || plan.skip === 0
      ? go(d, { ...plan, take }, at, true)
      : rowsFrom(() => go(d, { ...plan, take: 1 }, at));

  const start = { steps: offset, run: () => forwards({ skip: offset }) };
  const routes = [start];
  const { below, above } = list ? positions.nearest(list, offset) : {};
  if (below) {
    const skip = offset - below.offset;
    routes.push({
      steps: skip,
      run: () => forwards({ from: below, skip }, (n) => below.offset + n),
    });
  }
  // Backwards: reach the entry at `offset` from the other side, then read on from it.
  if (above) {
    const skip = above.offset - offset;
    routes.push({
      steps: skip,
      run: () =>
        rowsFrom(() => go(reverse(d), { from: above, skip, take: 1 }, (n) => above.offset - n)),
    });
  }
  if (total !== undefined) {
    const skip = total - 1 - offset;
    routes.push({
      steps: skip,
      run: () => rowsFrom(() => go(reverse(d), { skip, take: 1 }, (n) => total - 1 - n)),
    });
  }
  const route = routes.reduce((best, r) => (r.steps < best.steps ? r : best));
  let found = await route.run();
  if (found === null) {
    // An anchor was not where it said: forget them and walk from the start.
    if (list) list.anchors = [];
    found = (await start.run()) ?? [];
  }
  if (list && found.length > 0) {
    positions.record(list, { offset, key: found[0].key, primaryKey: found[0].primaryKey });
  }
  return found;
}

/** The records of `found`, in its order: loaded by an index walk, or one getAll over a run. */
async function records(
  walk: Walk,
  tx: IDBTransaction,
  store: string,
  found: Taken[],
  query: RangeQuery,
) {
  const { ranges } = walk;
  const objectStore = tx.objectStore(store);
  if (found.length === 0) return [];
  if (query.index !== undefined) return found.map((e) => e.value);
  const [first, last] = [found[0].primaryKey, found[found.length - 1].primaryKey];
  const prev = (query.direction ?? 'next') === 'prev';
  const rows = await done(
    objectStore.getAll(prev ? ranges.bound(last, first) : ranges.bound(first, last)),
  );
  return prev ? rows.reverse() : rows;
}

/** Rows from a walk, in one read transaction over the store and its token. */
export async function readWalk(walk: Walk, store: string, query: RangeQuery, take: number) {
  const tx = walk.db().transaction([store, walk.tokens], 'readonly');
  const found = await entries(walk, tx, store, query, take);
  return { found, rows: await records(walk, tx, store, found, query) };
}
