import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import type { Figure, Reps } from './mirror-page';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';

/**
 * bench/mirror: what a list's read costs in the mirror, in real Chromium on its own IndexedDB.
 * The page (bench/mirror-page.ts, bundled with worker/mirror.ts) fills one store with 100,000
 * and then 1,000,000 records of about 100 bytes, and times the window reads a virtualised list
 * makes (50 rows at the start, the middle and the end, by the primary key and by an index, by
 * key range) beside a `getAll` of the same store: what a page reading the whole list would
 * pay. Each figure is the median of several runs; the ratio is read / getAll.
 *
 * IndexedDB has no rank: the first window at an offset walks every key before it (a key
 * cursor, no record loaded), which Chromium does at about 0.3 µs a key by the primary key and
 * 4 µs through an index. Those are the "cold" figures, each measured right after a write (which
 * makes the mirror forget what it knew). From then on the mirror starts each walk at the
 * nearest position it passed (or from the end once the count is known), so scrolling, jumping
 * back and reading the end cost the distance moved. Goal: the windows that do not walk far
 * (start, scrolling, end with the count known, key range) cost under 1/100 of the getAll at
 * every size (exits non-zero if missed).
 */

const STAGES = [100_000, 1_000_000];
const REPS: Reps = { window: 15, cold: 5, getAll: 5 };
const GOAL_RATIO = 0.01;
/** The reads whose cost must not grow with the store. */
const CONSTANT = [
  'window offset 0',
  'window by index, newest',
  'window by index, scrolling',
  'window by index, last, count known',
  'window by index, key range',
];

async function bundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      lib: { entry: join(import.meta.dirname, 'mirror-page.ts'), formats: ['es'] },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('bench/mirror: the page did not bundle');
  return chunk.code;
}

/** Serves the page cross-origin isolated, so performance.now() is precise to microseconds. */
function serve(script: string): Promise<Server> {
  const server = createServer((req, res) => {
    const isolated = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    };
    if (req.url === '/bench.js') {
      res.writeHead(200, { ...isolated, 'content-type': 'text/javascript' }).end(script);
    } else if (req.url === '/') {
      res
        .writeHead(200, { ...isolated, 'content-type': 'text/html' })
        .end(
          '<!doctype html><title>mirror bench</title><script type="module" src="/bench.js"></script>',
        );
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1)).padStart(10);

function print(records: number, figures: Figure[]) {
  const baseline = figures[0].medianMs;
  console.log(`\n${records.toLocaleString('en')} records`);
  console.log(`  ${'read'.padEnd(36)} ${'rows'.padStart(9)} ${'median ms'.padStart(10)}  / getAll`);
  for (const f of figures) {
    const ratio = (f.medianMs / baseline).toFixed(4);
    console.log(`  ${f.read.padEnd(36)} ${String(f.rows).padStart(9)} ${ms(f.medianMs)}  ${ratio}`);
  }
}

async function main() {
  const script = await bundle();
  const server = await serve(script);
  const profile = mkdtempSync(join(tmpdir(), 'mirror-bench-'));
  // A persistent profile keeps IndexedDB on disk, as for a user (incognito keeps it in memory).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  let missed = false;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => console.error(`page: ${error.message}`));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => 'mirrorBench' in window);
    console.log(`bench/mirror: ${await context.browser()?.version()} (${CHROMIUM})`);
    await page.evaluate(() => window.mirrorBench.open());
    let filled = 0;
    for (const records of STAGES) {
      const took = await page.evaluate(([from, to]) => window.mirrorBench.fill(from, to), [
        filled,
        records,
      ] as const);
      console.log(`\nfilled ${filled} -> ${records} records in ${(took / 1000).toFixed(1)} s`);
      filled = records;
      const figures = await page.evaluate(([n, reps]) => window.mirrorBench.measure(n, reps), [
        records,
        REPS,
      ] as const);
      print(records, figures);
      const ratioOf = (reads: Figure[]) =>
        Math.max(...reads.map((f) => f.medianMs)) / figures[0].medianMs;
      const windows = figures.filter((f) => f.read.startsWith('window'));
      const constant = ratioOf(windows.filter((f) => CONSTANT.includes(f.read)));
      console.log(`  slowest window / getAll: ${ratioOf(windows).toFixed(4)}`);
      console.log(`  slowest window that does not walk far / getAll: ${constant.toFixed(4)}`);
      if (constant >= GOAL_RATIO) missed = true;
    }
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
  if (missed) {
    console.error(`\nbench/mirror: a window that does not walk far cost ${GOAL_RATIO} of a getAll`);
    process.exitCode = 1;
  }
}

await main();
