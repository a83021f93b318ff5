/**
 * Positions in an ordered list (a store or index, a direction, bounds) the mirror has already
 * walked to. IndexedDB has no rank: reaching row `offset` means stepping over every entry
 * before it, about 4 µs an entry through an index in Chromium, so a window in the middle of a
 * million rows would cost seconds every time. Each walk leaves anchors (an offset and the entry
 * there) every ANCHOR_EVERY entries and at each window it reads; the next window starts from
 * the nearest anchor, forwards or backwards, so scrolling and jumping back cost the distance
 * moved.
 *
 * Anchors hold only while the store is unchanged. Every write transaction of the mirror stamps
 * the stores it touches with a fresh token (in the mirror's own store, from any connection:
 * every worker instance and build shares it), and a read trusts anchors only if they were
 * recorded under the token it reads in its own transaction.
 */

export type Entry = { key: IDBValidKey; primaryKey: IDBValidKey };
export type Anchor = Entry & { offset: number };

/** Entries stepped over between two anchors a walk leaves. */
export const ANCHOR_EVERY = 4096;
const MAX_ANCHORS = 4096;
const MAX_LISTS = 32;

type List = { token: string; anchors: Anchor[]; count?: number };

export type Positions = {
  /**
   * The list's remembered state if it was recorded under `token`, a fresh one otherwise; none
   * without a token or an id.
   */
  list(id: string | undefined, token: string | undefined): List | undefined;
  record(list: List, anchor: Anchor): void;
  /** The closest anchors at or below, and above, `offset`. */
  nearest(list: List, offset: number): { below?: Anchor; above?: Anchor };
};

export function createPositions(): Positions {
  const lists = new Map<string, List>();

  /** Index of the first anchor whose offset is > `offset`. */
  const after = (anchors: Anchor[], offset: number) => {
    let lo = 0;
    let hi = anchors.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (anchors[mid].offset <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    list(id, token) {
      // Without a token (nothing written yet, or the mirror's own store was lost) nothing holds.
      if (token === undefined || id === undefined) return undefined;
      let list = lists.get(id);
      if (list?.token !== token) list = { token, anchors: [] };
      lists.delete(id); // Most recently used last, so the oldest list is dropped first.
      lists.set(id, list);
      if (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value as string);
      return list;
    },
    record(list, anchor) {
      const at = after(list.anchors, anchor.offset);
      if (list.anchors[at - 1]?.offset === anchor.offset) return;
      list.anchors.splice(at, 0, anchor);
      // Thin out rather than grow without bound: every other anchor goes.
      if (list.anchors.length > MAX_ANCHORS) list.anchors = list.anchors.filter((_, i) => i % 2);
    },
    nearest(list, offset) {
      const at = after(list.anchors, offset);
      return { below: list.anchors[at - 1], above: list.anchors[at] };
    },
  };
}

export type Drive = {
  direction: 'next' | 'prev';
  /** Put the cursor on this entry first (sought by key, and primary key in an index). */
  from?: Entry;
  /** Entries to step over (from `from`, or from the start of the range). */
  skip: number;
  /** Entries to collect after the skip. */
  take: number;
  /** Called at each landing of the skip, with the entries stepped so far. */
  landed?: (steps: number, entry: Entry) => void;
  cmp: (a: IDBValidKey, b: IDBValidKey) => number;
  /** The cursor walks an index (several entries may share one key). */
  index: boolean;
};

/** An entry a walk collected, with its record when the cursor loads records. */
export type Taken = Entry & { value?: unknown };

/**
 * Drives one cursor: onto `from`, over `skip` entries in chunks of ANCHOR_EVERY, then collects
 * up to `take` entries. Resolves with what it collected (fewer at the end of the range), or
 * null when `from` is not where an anchor said it was. `from` is sought with continue() (or
 * continuePrimaryKey) unless the caller opened the range to start at it (ReadsContext).
 */
export function drive(request: IDBRequest<IDBCursor | null>, plan: Drive): Promise<Taken[] | null> {
  return new Promise((resolve, reject) => {
    const taken: Taken[] = [];
    let placed = !plan.from;
    let sought = false;
    let skipped = 0;
    let landing = false;
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(placed ? taken : null);
      const entry = { key: cursor.key, primaryKey: cursor.primaryKey };
      if (!placed && plan.from) {
        const { key, primaryKey } = plan.from;
        // Where the cursor is against `from`, in walking order: < 0 before it, 0 on it.
        const order =
          (plan.cmp(entry.key, key) || (plan.index ? plan.cmp(entry.primaryKey, primaryKey) : 0)) *
          (plan.direction === 'next' ? 1 : -1);
        if (order === 0) {
          placed = true;
        } else if (order < 0 && !sought) {
          sought = true;
          // An index holds several entries under one key: seek ours by its primary key too.
          if (plan.index) return cursor.continuePrimaryKey(key, primaryKey);
          return cursor.continue(key);
        } else {
          return resolve(null);
        }
      }
      if (landing) plan.landed?.(skipped, entry);
      if (skipped < plan.skip) {
        const step = Math.min(ANCHOR_EVERY, plan.skip - skipped);
        skipped += step;
        landing = true;
        return cursor.advance(step);
      }
      landing = false;
      if (taken.length >= plan.take) return resolve(taken);
      taken.push('value' in cursor ? { ...entry, value: cursor.value } : entry);
      if (taken.length >= plan.take) return resolve(taken);
      cursor.continue();
    };
  });
}
