import { createPositions } from './mirror-positions';
import {
  keyRange,
  type CountQuery,
  type KeyBounds,
  type MirrorReads,
  type RangeQuery,
  type WindowQuery,
  type WindowRows,
} from './mirror-query';
import { done, listId, readWalk, tokenOf, type ReadsContext, type Walk } from './mirror-walk';

export type { ReadsContext } from './mirror-walk';

/**
 * Reads over a store or one of its indexes by key range (mirror-query.ts): a page of rows, a
 * count, a cursor walk, and the `window` a virtualised list asks for. A window deep in a list
 * is a walk (mirror-walk.ts) from the nearest position an earlier walk left; the plain forward
 * page is one getAll.
 */

const whole = (n: number | undefined, what: string) => {
  if (n === undefined) return;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`mirror: ${what} must be a whole number >= 0 (got ${n})`);
  }
};

/** Visits the query's records in order until `visit` answers false or the limit is reached. */
function iterateCursor<T>(
  source: IDBObjectStore | IDBIndex,
  range: IDBKeyRange | undefined,
  query: RangeQuery,
  visit: (value: T, key: string) => boolean | void,
) {
  return new Promise<void>((resolve, reject) => {
    const request = source.openCursor(range, query.direction ?? 'next');
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
}

export function createMirrorReads<S extends string>(ctx: ReadsContext): MirrorReads<S> {
  const walk: Walk = { ...ctx, positions: createPositions() };
  const { positions } = walk;
  const bounds = (query: KeyBounds) => keyRange(ctx.ranges, query);
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
      return (await readWalk(walk, store, query, query.limit ?? Infinity)).rows as T[];
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
      const { found, rows } = await readWalk(walk, store, query, query.count);
      return { rows: rows as T[], keys: found.map((e) => String(e.primaryKey)) };
    },

    /** Remembered under the store's token: a list asking for its total again costs nothing. */
    async count(store: S, query: CountQuery = {}) {
      const tx = ctx.db().transaction([store, ctx.tokens], 'readonly');
      const list = positions.list(listId(store, query, 'next'), await tokenOf(ctx, tx, store));
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
      await iterateCursor(plainSource(store, query.index), bounds(query), query, visit);
    },
  };
}
