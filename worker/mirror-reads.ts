import { createPositions, drive, type Drive, type Entry, type Taken } from './mirror-positions';
import {
  keyRange,
  type CountQuery,
  type KeyBounds,
  type MirrorReads,
  type RangeQuery,
  type WindowQuery,
  type WindowRows,
} from './mirror-query';

/**
 * Reads over a store or one of its indexes by key range (mirror-query.ts): a page of rows, a
 * count, a cursor walk, and the `window` a virtualised list asks for. A window walks to its
 * offset without loading the records before it (a key cursor over a store; through an index,
 * Chromium costs the same either way), starting from the nearest position an earlier walk left
 * (mirror-positions.ts), then loads only the records it returns.
 */

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

const whole = (n: number | undefined, what: string) => {
  if (n === undefined) return;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`mirror: ${what} must be a whole number >= 0 (got ${n})`);
  }
};

type Direction = 'next' | 'prev';
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

export function createMirrorReads<S extends string>(ctx: ReadsContext): MirrorReads<S> {
  const { ranges, cmp } = ctx;
  const positions = createPositions();
  const bounds = (query: KeyBounds) => keyRange(ranges, query);
  /**
   * What identifies a list: store, index, direction, bounds. Bounds that JSON would not tell
   * apart (dates, binary keys) get no id, and so no remembered positions.
   */
  const listId = (store: S, query: RangeQuery, d: Direction) => {
    const plain = (key: IDBValidKey | undefined): boolean =>
      key === undefined ||
      typeof key === 'string' ||
      typeof key === 'number' ||
      (Array.isArray(key) && key.every(plain));
    if (!plain(query.lower) || !plain(query.upper)) return undefined;
    const { index, lower, upper, lowerOpen, upperOpen } = query;
    return JSON.stringify([store, index, d, lower, upper, !!lowerOpen, !!upperOpen]);
  };
  /** The query's range; walking backwards from an entry with `seekByRange`, ending at it. */
  const rangeFrom = (query: KeyBounds, entry: Entry | undefined, dir: Direction) =>
    bounds(
      entry && dir === 'prev' && ctx.seekByRange
        ? { ...query, upper: entry.key, upperOpen: false }
        : query,
    );
  const token = async (tx: IDBTransaction, store: S) =>
    (await done(tx.objectStore(ctx.tokens).get(store))) as string | undefined;

  /**
   * The entries (keys and primary keys) of `take` rows from the query's offset, reached from
   * the start, the nearest anchor on either side, or the end of the range when its count is
   * known, whichever is fewer steps away.
   */
  async function entries(tx: IDBTransaction, store: S, query: RangeQuery, take: number) {
    const objectStore = tx.objectStore(store);
    const source = query.index === undefined ? objectStore : objectStore.index(query.index);
    const d = query.direction ?? 'next';
    const offset = query.offset ?? 0;
    const keysOnly = source === objectStore;
    const stamp = offset > 0 ? await token(tx, store) : undefined;
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
      const range = rangeFrom(query, plan.from, dir);
      // A cursor with values is a cursor: drive reads what both have, and the value if any.
      const request = (
        values && !keysOnly ? source.openCursor(range, dir) : source.openKeyCursor(range, dir)
      ) as IDBRequest<IDBCursor | null>;
      return drive(request, {
        ...plan,
        direction: dir,
        cmp,
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
    const walk = (plan: { from?: Entry; skip: number }, at?: (n: number) => number) =>
      keysOnly || plan.skip === 0
        ? go(d, { ...plan, take }, at, true)
        : rowsFrom(() => go(d, { ...plan, take: 1 }, at));

    const start = { steps: offset, run: () => walk({ skip: offset }) };
    const routes = [start];
    const { below, above } = list ? positions.nearest(list, offset) : {};
    if (below) {
      const skip = offset - below.offset;
      routes.push({
        steps: skip,
        run: () => walk({ from: below, skip }, (n) => below.offset + n),
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
  async function records(tx: IDBTransaction, store: S, found: Taken[], query: RangeQuery) {
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
  async function read(store: S, query: RangeQuery, take: number) {
    const tx = ctx.db().transaction([store, ctx.tokens], 'readonly');
    const found = await entries(tx, store, query, take);
    return { found, rows: await records(tx, store, found, query) };
  }

  const forward = (query: RangeQuery) => !query.offset && (query.direction ?? 'next') === 'next';
  const plainSource = (store: S, index: string | undefined) => {
    const objectStore = ctx.db().transaction(store, 'readonly').objectStore(store);
    return index === undefined ? objectStore : objectStore.index(index);
  };

  return {
    async range<T>(store: S, query: RangeQuery = {}) {
      whole(query.offset, 'offset');
      whole(query.limit, 'limit');
      if (query.limit === 0) return [];
      // The plain forward page is one getAll.
      if (forward(query)) {
        return (await done(
          plainSource(store, query.index).getAll(bounds(query), query.limit),
        )) as T[];
      }
      return (await read(store, query, query.limit ?? Infinity)).rows as T[];
    },

    async window<T>(store: S, query: WindowQuery): Promise<WindowRows<T>> {
      whole(query.offset, 'offset');
      whole(query.count, 'count');
      if (query.count === 0) return { rows: [], keys: [] };
      if (forward(query)) {
        const source = plainSource(store, query.index);
        // Same transaction, same bounds: the keys line up with the rows.
        const [rows, keys] = await Promise.all([
          done(source.getAll(bounds(query), query.count)),
          done(source.getAllKeys(bounds(query), query.count)),
        ]);
        return { rows: rows as T[], keys: keys.map(String) };
      }
      const { found, rows } = await read(store, query, query.count);
      return { rows: rows as T[], keys: found.map((e) => String(e.primaryKey)) };
    },

    /** Remembered under the store's token: a list asking for its total again costs nothing. */
    async count(store: S, query: CountQuery = {}) {
      const tx = ctx.db().transaction([store, ctx.tokens], 'readonly');
      const list = positions.list(listId(store, query, 'next'), await token(tx, store));
      if (list?.count !== undefined) return list.count;
      const objectStore = tx.objectStore(store);
      const source = query.index === undefined ? objectStore : objectStore.index(query.index);
      const total = await done(source.count(bounds(query)));
      if (list) list.count = total;
      return total;
    },

    async iterate<T>(
      store: S,
      query: RangeQuery,
      visit: (value: T, key: string) => boolean | void,
    ) {
      whole(query.offset, 'offset');
      whole(query.limit, 'limit');
      if (query.limit === 0) return;
      const source = plainSource(store, query.index);
      await new Promise<void>((resolve, reject) => {
        const request = source.openCursor(bounds(query), query.direction ?? 'next');
        let skipped = !query.offset;
        let left = query.limit ?? Infinity;
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return resolve();
          if (!skipped) {
            skipped = true;
            return cursor.advance(query.offset as number);
          }
          left -= 1;
          if (visit(cursor.value as T, String(cursor.primaryKey)) === false || left <= 0) {
            return resolve();
          }
          cursor.continue();
        };
      });
    },
  };
}
