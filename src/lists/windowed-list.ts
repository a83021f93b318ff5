/**
 * A list of any length read from the worker by windows (shared/ARCHITECTURE.md "The UI never
 * holds a 100k-item list"). The list keeps the rows it has read near the view, in blocks of
 * `block` rows (at most MAX_BLOCKS of them), and asks for the blocks the screen shows: nothing
 * else. No React here; `useWindowedList` wires it.
 *
 * Freshness: a 'changed' event re-reads the shown blocks only when it may concern them: it names
 * no keys (the whole store), a shown key, or a key this list has never read (a new row, or one
 * whose place is unknown: it may land in the shown range); or the shown rows still have holes
 * the worker was filling. A key read earlier and now scrolled away does not. After any change,
 * blocks read before it and not shown count as stale and are read again when they scroll back.
 */

/** What a window read answers: rows from `offset` on, the list's length and any summary. */
export type WindowAnswer<Row> = { offset: number; rows: readonly Row[]; total: number };

export type WindowedListDeps<Row, Answer extends WindowAnswer<Row>> = {
  read: (window: { offset: number; count: number }) => Promise<Answer>;
  keyOf: (row: Row) => string;
  /** Rows per window read (the contract allows up to 500). */
  block?: number;
  /** The most blocks held at once (MAX_BLOCKS unless given). */
  maxBlocks?: number;
  /** Something the screen shows changed: rows, total, summary or error. */
  onUpdate: () => void;
};

export type WindowedList<Row, Answer extends WindowAnswer<Row>> = {
  /** The row at `index`, or undefined while it is not loaded (a placeholder shows). */
  row(index: number): Row | undefined;
  /** The list's length once the first window has answered; null before. */
  total(): number | null;
  /** The latest answer minus its rows (e.g. the unread count), null before the first. */
  summary(): Omit<Answer, 'rows' | 'offset'> | null;
  /** The last read's failure, cleared by the next success. */
  error(): unknown;
  /** Whether the first window is still on its way. */
  loading(): boolean;
  /** The screen shows rows `start` (inclusive) to `end` (exclusive). */
  setRange(start: number, end: number): void;
  /** The worker's 'changed' event for this list's store: `keys` null means every record. */
  changed(keys: readonly string[] | null): void;
  /** Reads the shown blocks again (after the user's own change, or a retry). */
  refresh(): void;
  /** Every row held: read, and near enough the view to be kept (for "what the user has seen"). */
  loaded(): Row[];
};

export const DEFAULT_BLOCK = 50;
/**
 * The most blocks kept in memory (50 rows each: 2,500 rows). Scrolling far through a 100k list
 * drops the blocks farthest from the view; they are read again if the user scrolls back.
 */
export const MAX_BLOCKS = 50;

export function createWindowedList<Row, Answer extends WindowAnswer<Row>>(
  deps: WindowedListDeps<Row, Answer>,
): WindowedList<Row, Answer> {
  const block = deps.block ?? DEFAULT_BLOCK;
  const maxBlocks = deps.maxBlocks ?? MAX_BLOCKS;
  const rows = new Map<number, Row>();
  /** Block index -> the generation it was read in; older generations are stale. */
  const fresh = new Map<number, number>();
  /** Blocks whose answer had fewer rows than the list holds there (the worker is loading). */
  const holes = new Set<number>();
  /** Block index -> the number of its newest read; only that read's answer is applied. */
  const latest = new Map<number, number>();
  const inFlight = new Set<number>();
  let generation = 0;
  let reads = 0;
  let total: number | null = null;
  let summary: Omit<Answer, 'rows' | 'offset'> | null = null;
  let error: unknown = null;
  let range = { start: 0, end: block };

  const shownBlocks = (): number[] => {
    const end = total === null ? range.end : Math.min(range.end, total);
    // An empty list still watches its first block: a change may bring its first rows.
    if (end <= range.start) return total === null || total === 0 ? [0] : [];
    const out: number[] = [];
    for (let b = Math.floor(range.start / block); b * block < end; b += 1) out.push(b);
    return out;
  };

  const apply = (b: number, answer: Answer) => {
    const { rows: got, offset: _offset, ...rest } = answer;
    const start = b * block;
    // Keep what the list shows in step with the answer: the rows it gave, nothing past its end.
    for (let i = 0; i < block; i += 1) {
      const row = got[i];
      if (row === undefined) rows.delete(start + i);
      else rows.set(start + i, row);
    }
    if (total !== null && answer.total < total) {
      for (const index of [...rows.keys()]) if (index >= answer.total) rows.delete(index);
    }
    total = answer.total;
    summary = rest;
    error = null;
    const expected = Math.max(0, Math.min(block, answer.total - start));
    if (got.length < expected) holes.add(b);
    else holes.delete(b);
  };

  /** Forgets the blocks farthest from the shown range while more than maxBlocks are held. */
  const evict = () => {
    if (fresh.size <= maxBlocks) return;
    const middle = (range.start + range.end) / 2 / block;
    const farthest = [...fresh.keys()].sort((a, b) => Math.abs(b - middle) - Math.abs(a - middle));
    for (const b of farthest.slice(0, fresh.size - maxBlocks)) {
      fresh.delete(b);
      holes.delete(b);
      for (let i = b * block; i < (b + 1) * block; i += 1) rows.delete(i);
    }
  };

  /**
   * One read per block at a time: a change while a block's read is on its way asks for one
   * more read after it (`again`) instead of a second read that would make the first one's
   * answer useless. Otherwise a list whose reads take longer than the changes keep coming (a
   * window the server answers while the mirror backfills) would never show an answer.
   */
  const again = new Set<number>();
  const read = (b: number) => {
    const number = (reads += 1);
    latest.set(b, number);
    inFlight.add(b);
    const readIn = generation;
    deps.read({ offset: b * block, count: block }).then(
      (answer) => {
        if (latest.get(b) !== number) return;
        inFlight.delete(b);
        apply(b, answer);
        fresh.set(b, readIn);
        evict();
        deps.onUpdate();
        if (again.delete(b)) read(b);
        // The first answer gives the length: the rest of the shown range may need reading.
        ensure();
      },
      (failure: unknown) => {
        if (latest.get(b) !== number) return;
        inFlight.delete(b);
        again.delete(b);
        error = failure;
        deps.onUpdate();
      },
    );
  };
  const readSoon = (b: number) => {
    if (inFlight.has(b)) again.add(b);
    else read(b);
  };

  /** Reads each shown block that is not loaded (or stale) and not already on its way. */
  const ensure = () => {
    if (error !== null) return;
    for (const b of shownBlocks()) {
      if (inFlight.has(b) || fresh.get(b) === generation) continue;
      read(b);
    }
  };

  /** Whether a change naming `keys` may alter the shown blocks. */
  const concerns = (shown: number[], keys: readonly string[]) => {
    if (shown.some((b) => holes.has(b) || !fresh.has(b))) return true;
    const shownKeys = new Set<string>();
    const elsewhere = new Set<string>();
    for (const [index, row] of rows) {
      const b = Math.floor(index / block);
      (shown.includes(b) ? shownKeys : elsewhere).add(deps.keyOf(row));
    }
    return keys.some((key) => shownKeys.has(key) || !elsewhere.has(key));
  };

  const rereadShown = () => {
    for (const b of shownBlocks()) readSoon(b);
  };

  return {
    row: (index) => rows.get(index),
    total: () => total,
    summary: () => summary,
    error: () => error,
    loading: () => total === null && error === null,
    setRange(start, end) {
      if (start === range.start && end === range.end) return;
      range = { start: Math.max(0, start), end: Math.max(start, end) };
      ensure();
    },
    changed(keys) {
      const shown = shownBlocks();
      const concerned = keys === null || concerns(shown, keys);
      // Rows read before this change may be out of date, wherever they are.
      generation += 1;
      if (concerned) {
        rereadShown();
      } else {
        // The shown blocks are untouched by this change: they stay fresh.
        for (const b of shown) if (fresh.has(b)) fresh.set(b, generation);
      }
    },
    refresh() {
      error = null;
      generation += 1;
      rereadShown();
    },
    loaded: () => [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row),
  };
}
