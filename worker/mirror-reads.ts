import { createPositions, drive, type Drive, type Entry } from './mirror-positions';

/**
 * Reads over a store or one of its indexes by key range: a page of rows, a count, a cursor
 * walk, and the `window` a virtualised list asks for. A window finds its rows with a key
 * cursor (never loading the records before its offset), starting from the nearest position
 * an earlier walk left (mirror-positions.ts), then loads only the records it returns.
 */

/** Bounds on the key (the index's key when an index is named, else the primary key). */
export type KeyBounds = {
  lower?: IDBValidKey;
  upper?: IDBValidKey;
  lowerOpen?: boolean;
  upperOpen?: boolean;
};

export type RangeQuery = KeyBounds & {
  /** An index of the store; the store's primary key when absent. */
  index?: string;
  direction?: 'next' | 'prev';
  /** Rows skipped (in `direction` order) before the first one returned. */
  offset?: number;
  /** At most this many rows. */
  limit?: number;
};

export type CountQuery = KeyBounds & { index?: string };

/** `count` rows from `offset` (0 when absent) within the bounds (all keys when absent). */
export type WindowQuery = KeyBounds & {
  index?: string;
  direction?: 'next' | 'prev';
  offset?: number;
  count: number;
};

/** A window's rows and their primary keys (as strings), in the window's order. */
export type WindowRows<T> = { rows: T[]; keys: string[] };

export type MirrorReads<S extends string> = {
  range<T = unknown>(store: S, query?: RangeQuery): Promise<T[]>;
  count(store: S, query?: CountQuery): Promise<number>;
  /** Walks a cursor over the query's rows; `visit` returning false stops the walk. */
  iterate<T = unknown>(
    store: S,
    query: RangeQuery,
    visit: (value: T, key: string) => boolean | void,
  ): Promise<void>;
  window<T = unknown>(store: S, query: WindowQuery): Promise<WindowRows<T>>;
};

/**
 * The IDBKeyRange for `bounds`, or undefined for every key. `ranges` is the IDBKeyRange class
 * of the implementation the factory belongs to (fake-indexeddb accepts only its own).
 */
export function keyRange(ranges: typeof IDBKeyRange, bounds: KeyBounds): IDBKeyRange | undefined {
  const { lower, upper, lowerOpen = false, upperOpen = false } = bounds;
  if (lower !== undefined && upper !== undefined) {
    return ranges.bound(lower, upper, lowerOpen, upperOpen);
  }
  if (lower !== undefined) return ranges.lowerBound(lower, lowerOpen);
  if (upper !== undefined) return ranges.upperBound(upper, upperOpen);
  return undefined;
}

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
};

export function createMirrorReads<S extends string>(ctx: ReadsContext): MirrorReads<S> {
  const { ranges, cmp } = ctx;
  const positions = createPositions();
  const bounds = (query: KeyBounds) => keyRange(ranges, query);
  const listId = (store: S, query: RangeQuery, d: Direction) =>
    JSON.stringify([
      store,
      query.index ?? null,
      d,
      query.lower ?? null,
      query.upper ?? null,
      !!query.lowerOpen,
      !!query.upperOpen,
    ]);
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
    const stamp = offset > 0 ? await token(tx, store) : undefined;
    const list = positions.list(listId(store, query, d), stamp);
    const total = positions.list(listId(store, query, 'next'), stamp)?.count;
    if (total !== undefined && offset >= total) return [];
    /** A key cursor walk in `dir`, leaving an anchor at each landing (`at`: its offset). */
    const go = (
      dir: Direction,
      plan: Omit<Drive, 'direction' | 'cmp' | 'index'>,
      at = (n: number) => n,
    ) =>
      drive(source.openKeyCursor(bounds(query), dir), {
        ...plan,
        direction: dir,
        cmp,
        index: query.index !== undefined,
        landed: (n, entry) => list && positions.record(list, { offset: at(n), ...entry }),
      });
    // Backwards: reach the entry at `offset` from the other side, then walk on from it.
    const back = async (reach: () => Promise<Entry[] | null>) => {
      const [at] = (await reach()) ?? [];
      return at ? go(d, { from: at, skip: 0, take }) : null;
    };

    const start = { steps: offset, run: () => go(d, { skip: offset, take }) };
    const routes = [start];
    const { below, above } = list ? positions.nearest(list, offset) : {};
    if (below) {
      const skip = offset - below.offset;
      routes.push({
        steps: skip,
        run: () => go(d, { from: below, skip, take }, (n) => below.offset + n),
      });
    }
    if (above) {
      const skip = above.offset - offset;
      routes.push({
        steps: skip,
        run: () =>
          back(() => go(reverse(d), { from: above, skip, take: 1 }, (n) => above.offset - n)),
      });
    }
    if (total !== undefined) {
      const skip = total - 1 - offset;
      routes.push({
        steps: skip,
        run: () => back(() => go(reverse(d), { skip, take: 1 }, (n) => total - 1 - n)),
      });
    }
    const route = routes.reduce((best, r) => (r.steps < best.steps ? r : best));
    let found = await route.run();
    if (found === null) {
      // An anchor was not where it said: forget them and walk from the start.
      if (list) list.anchors = [];
      found = (await start.run()) ?? [];
    }
    if (list && found.length > 0) positions.record(list, { offset, ...found[0] });
    return found;
  }

  /** The records of `found`, in its order: one getAll over a store's run, or one get a row. */
  async function records(tx: IDBTransaction, store: S, found: Entry[], query: RangeQuery) {
    const objectStore = tx.objectStore(store);
    if (found.length === 0) return [];
    if (query.index !== undefined) {
      return Promise.all(found.map((e) => done(objectStore.get(e.primaryKey))));
    }
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
