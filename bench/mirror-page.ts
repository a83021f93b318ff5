import { CORE_STORES, openMirror, type Mirror, type WindowQuery } from '../worker/mirror';

/**
 * The in-page half of bench/mirror: bundled with worker/mirror.ts and run in Chromium, on the
 * browser's own IndexedDB. bench/mirror.ts drives it through `window.mirrorBench`.
 */

const SPECS = {
  ...CORE_STORES,
  items: { keyPath: 'id', indexes: { created_at: { keyPath: 'created_at' } }, version: 1 },
} as const;
type Store = keyof typeof SPECS;

/** About 100 bytes serialised, like a small notification row. */
type Item = { id: string; created_at: number; read: 0 | 1; title: string };

/** Records per write transaction while filling. */
const BATCH = 25_000;
/** Rows in a window: about what a list shows at once. */
export const WINDOW = 50;

/** Runs per read: warm windows, cold walks (each after a write), the getAll baseline. */
export type Reps = { window: number; cold: number; getAll: number };

export type Figure = { read: string; rows: number; medianMs: number; reps: number };

export type MirrorBench = {
  /** Opens a fresh mirror (deleting a previous one). */
  open(): Promise<void>;
  /** Adds records [from, to); answers the milliseconds it took. */
  fill(from: number, to: number): Promise<number>;
  /** Times the reads over `records` records (already filled). */
  measure(records: number, reps: Reps): Promise<Figure[]>;
};

declare global {
  interface Window {
    mirrorBench: MirrorBench;
  }
}

const NAME = 'mirror-bench';
let mirror: Mirror<Store> | undefined;
const opened = () => {
  if (!mirror) throw new Error('mirror-bench: open() first');
  return mirror;
};

const itemOf = (i: number): Item => ({
  id: `n-${String(i).padStart(7, '0')}`,
  // A multiplicative hash (a bijection mod 2^32): created_at order is not id order.
  created_at: 1_600_000_000_000 + ((i * 2_654_435_761) % 4_294_967_296),
  read: (i % 3 === 0 ? 1 : 0) as 0 | 1,
  title: `Notification ${i}: a document you follow was updated.`,
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The median of `reps` runs of `run`, each after an untimed `before`. */
async function time(
  read: string,
  reps: number,
  run: () => Promise<number>,
  before?: () => Promise<unknown>,
): Promise<Figure> {
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < reps; i += 1) {
    await before?.();
    const start = performance.now();
    rows = await run();
    samples.push(performance.now() - start);
  }
  return { read, rows, medianMs: median(samples), reps };
}

window.mirrorBench = {
  async open() {
    mirror?.close();
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(NAME);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    mirror = await openMirror(indexedDB, NAME, SPECS);
  },

  async fill(from, to) {
    const m = opened();
    const start = performance.now();
    for (let at = from; at < to; at += BATCH) {
      const items = [];
      for (let i = at; i < Math.min(to, at + BATCH); i += 1) {
        const value = itemOf(i);
        items.push({ store: 'items' as const, key: value.id, value });
      }
      await m.write(items);
    }
    return performance.now() - start;
  },

  async measure(records, reps) {
    const m = opened();
    const window = async (query: Omit<WindowQuery, 'count'>) =>
      (await m.window<Item>('items', { ...query, count: WINDOW })).rows.length;
    const newest = { index: 'created_at', direction: 'prev' } as const;
    // Rewriting one record gives the store a new token: what the mirror remembers about its
    // positions and counts no longer holds, so the next read starts cold.
    const forget = () => m.write([{ store: 'items', key: itemOf(0).id, value: itemOf(0) }]);
    const half = records >> 1;
    const figures = [
      await time('getAll (baseline)', reps.getAll, async () => (await m.getAll('items')).length),
      await time('count, cold', reps.cold, () => m.count('items'), forget),
      await time('window offset 0', reps.window, () => window({ offset: 0 })),
      await time('window offset n/2, cold', reps.cold, () => window({ offset: half }), forget),
      await time(
        'window offset n-50, cold',
        reps.cold,
        () => window({ offset: records - WINDOW }),
        forget,
      ),
      await time('window by index, newest', reps.window, () => window({ ...newest, offset: 0 })),
      await time(
        'window by index, n/2, cold',
        reps.cold,
        () => window({ ...newest, offset: half }),
        forget,
      ),
    ];
    // A list jumped to the middle (untimed, cold), then scrolled a window at a time.
    await forget();
    await window({ ...newest, offset: half });
    let scrolled = half;
    figures.push(
      await time('window by index, scrolling', reps.window, () =>
        window({ ...newest, offset: (scrolled += WINDOW) }),
      ),
      // A list that knows its total (it asked for the count) reads its last rows from the end.
      await time(
        'window by index, last, count known',
        reps.window,
        () => window({ ...newest, offset: records - WINDOW }),
        async () => {
          await forget();
          await m.count('items', { index: 'created_at' });
        },
      ),
      await time('window by index, key range', reps.window, () =>
        window({ index: 'created_at', lower: itemOf(half).created_at }),
      ),
    );
    return figures;
  },
};
