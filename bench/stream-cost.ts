import type { BrowserContext } from 'playwright-core';
import { BENCH_BASE } from './stream-build';

/**
 * Cost of one update at 10k and 200k characters (bench/stream-pages/cost.tsx, in Chromium with
 * the app's appendBlocks and StreamingMarkdown): rounds alternate between the sizes, each
 * timing UPDATES frame-sized appends (the characters 2,000 tokens/s of 4 characters bring in
 * one 16 ms frame) of the same stretch of the answer.
 */

const UPDATES = 150;
const ROUNDS = 4;
/** 2,000 tokens/s x 4 characters x 16 ms. */
export const FRAME_CHARS = 128;

export type CostFigures = {
  /** Median and p95 ms of appendBlocks + render + commit, per size. */
  small: { p50: number; p95: number; layoutP50: number };
  large: { p50: number; p95: number; layoutP50: number };
  naiveLarge: { p50: number };
  sizes: [number, number];
};

type Cost = { js: number[]; layout: number[] };
type Run = { text: string; size: number; stretch: string; chunk: number; updates: number };

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

export async function measureUpdateCost(
  context: BrowserContext,
  origin: string,
  answer: string,
  sizes: [number, number] = [10_000, Math.min(200_000, answer.length)],
): Promise<CostFigures> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}${BENCH_BASE}cost.html`);
    await page.waitForFunction(() => 'ours' in ((window as { __cost?: object }).__cost ?? {}));
    // The appended stretch: from a block's start in the middle, the same for both sizes.
    const at = answer.indexOf('\n\n', Math.floor(answer.length / 2)) + 2;
    const stretch = answer.slice(at, at + FRAME_CHARS * UPDATES);
    const run = (which: 'ours' | 'naive', size: number, updates: number) =>
      page.evaluate(
        ([w, r]) =>
          (window as unknown as { __cost: Record<string, (r: Run) => Cost> }).__cost[w](r),
        [which, { text: answer, size, stretch, chunk: FRAME_CHARS, updates }] as const,
      );
    const small: Cost = { js: [], layout: [] };
    const large: Cost = { js: [], layout: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [size, into] of [
        [sizes[0], small],
        [sizes[1], large],
      ] as const) {
        const cost = await run('ours', size, UPDATES);
        into.js.push(...cost.js);
        into.layout.push(...cost.layout);
      }
    }
    const naive = await run('naive', sizes[1], 5);
    const stats = (c: Cost) => ({
      p50: quantile(c.js, 0.5),
      p95: quantile(c.js, 0.95),
      layoutP50: quantile(c.layout, 0.5),
    });
    return {
      small: stats(small),
      large: stats(large),
      naiveLarge: { p50: quantile(naive.js, 0.5) },
      sizes,
    };
  } finally {
    await page.close();
  }
}
