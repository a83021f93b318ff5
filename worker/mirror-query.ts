/** The queries of the mirror's reads (mirror-reads.ts). */

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
  /** The range's row count, if the caller knows it exactly (see WindowQuery). */
  total?: number;
};

export type CountQuery = KeyBounds & { index?: string };

/** `count` rows from `offset` (0 when absent) within the bounds (all keys when absent). */
export type WindowQuery = KeyBounds & {
  index?: string;
  direction?: 'next' | 'prev';
  offset?: number;
  count: number;
  /**
   * How many rows the range holds, when the caller keeps that count exactly (written in the
   * same transactions as the rows): a window near the end is then read from the end.
   */
  total?: number;
};

/**
 * The window of a list kept in an index of array keys `[...prefix, sort key..., primary]`: every
 * key that begins with `prefix`, in `direction` (a feed's time order, a tag's documents). Arrays
 * sort after every number and string, so `[...prefix, []]` is above each key of the prefix.
 */
export const prefixWindow = (
  index: string,
  prefix: IDBValidKey[],
  direction: 'next' | 'prev',
  offset: number,
  count: number,
): WindowQuery & { lower: IDBValidKey[]; upper: IDBValidKey[] } => ({
  index,
  direction,
  lower: prefix,
  upper: [...prefix, []],
  offset,
  count,
});

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
