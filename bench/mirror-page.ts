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

export type Figure = { read: string; rows: number; medianMs: number; reps: number };

export type MirrorBench = {
  /** Opens a fresh mirror (deleting a previous one). */
  open(): Promise<void>;
  /** Adds records [from, to); answers the milliseconds it took. */
  fill(from: number, to: number): Promise<number>;
  /** Times the reads over `records` records (already filled). */
  measure(records: number, reps: { window: number; getAll: number }): Promise<Figure[]>;
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

async function time(read: string, reps: number, run: () => Promise<number>): Promise<Figure> {
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < reps; i += 1) {
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
    // A created_at near the middle of the range, for the key-range window.
    const middle = itemOf(records >> 1).created_at;
    return [
      await time('getAll (baseline)', reps.getAll, async () => (await m.getAll('items')).length),
      await time('count', reps.window, () => m.count('items')),
      await time('window offset 0', reps.window, () => window({ offset: 0 })),
      await time('window offset n/2', reps.window, () => window({ offset: records >> 1 })),
      await time('window offset n-50', reps.window, () => window({ offset: records - WINDOW })),
      await time('window by index, newest', reps.window, () =>
        window({ index: 'created_at', direction: 'prev', offset: 0 }),
      ),
      await time('window by index, n/2', reps.window, () =>
        window({ index: 'created_at', direction: 'prev', offset: records >> 1 }),
      ),
      await time('window by index, key range', reps.window, () =>
        window({ index: 'created_at', lower: middle }),
      ),
    ];
  },
};
