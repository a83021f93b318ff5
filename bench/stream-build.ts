import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { BrowserContext } from 'playwright-core';
import { build } from 'vite';

/**
 * bench/stream's own pages (bench/stream-pages/*.html), built with vite into a temporary
 * directory and served to Chromium under /bench-stream/ on the real server's origin by
 * Playwright (context.route), so they call the server's API as the app does without a line of
 * bench code in the product or its build.
 */

export const BENCH_BASE = '/bench-stream/';
const PAGES = resolve(dirname(fileURLToPath(import.meta.url)), 'stream-pages');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export async function buildBenchPages(product: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'stream-bench-pages-'));
  await build({
    root: PAGES,
    base: BENCH_BASE,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    define: { __PRODUCT__: JSON.stringify(product) },
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        input: { naive: join(PAGES, 'naive.html'), cost: join(PAGES, 'cost.html') },
      },
    },
  });
  return outDir;
}

/** Serves the built pages at `${origin}/bench-stream/...` in `context`. */
export async function serveBenchPages(context: BrowserContext, origin: string, dir: string) {
  await context.route(`${origin}${BENCH_BASE}**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(BENCH_BASE.length);
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file)) return route.fulfill({ status: 404 });
    await route.fulfill({
      status: 200,
      headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
      body: readFileSync(file),
    });
  });
}
