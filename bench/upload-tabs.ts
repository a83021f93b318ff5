import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { startServer } from '../server/start';
import { startCountingProxy } from './stream-proxy';

/**
 * bench/upload-tabs: the figure "8 tabs watching one processing upload: the server sees one
 * status poll stream, not eight" (issue 20). A user uploads a Markdown file from the drive page
 * (/feeds/home/drives) in Chromium; processing is off (`uploadJobs: false`), so the file stays
 * PROCESSING and the SharedWorker's one poll runs its course (5 s, doubling). The other tabs of
 * the same browser then open the drive page and show the upload too. Every GET
 * /api/upload/status reaching the server is counted by a pass-through proxy in front of it
 * (stream-proxy.ts: the worker's requests are invisible to Playwright's page events), from the
 * moment the first tab shows "Processing" for WATCH_MS. Baseline in the same run: the same with
 * one tab (a fresh browser context: its own SharedWorker, its own user). Goal: 8 tabs send as
 * many status requests as 1 tab.
 * Run: npm run bench:upload-tabs (UPLOAD_TABS_PORT picks the server's port; 0: any).
 */

const TABS = 8;
const WATCH_MS = Number(process.env.UPLOAD_TABS_WATCH_MS ?? 40_000);
const PORT = Number(process.env.UPLOAD_TABS_PORT ?? 0);
const HEADERS = { 'app-type': 'main', 'x-request-origin': 'web-app' };
const MD = '# Harbour notes\n\nContainer volumes rose for a third month in a row.\n';

async function signUp(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { ...HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Watcher', email, password }),
  });
  if (!res.ok) throw new Error(`bench/upload-tabs: sign-up ${res.status}`);
}

async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/auth/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/feeds\//);
}

/** The drive page showing the upload as processing. */
async function watching(page: Page, base: string) {
  await page.goto(`${base}/feeds/home/drives`);
  await page
    .getByRole('list', { name: 'Files uploading' })
    .getByText('Processing')
    .waitFor({ timeout: 30_000 });
}

/**
 * Status requests the server saw after one tab's upload, with `tabs` tabs open: for `window` ms
 * from the moment the first tab shows "Processing", or (no window given) WATCH_MS or until 5 s
 * after the last tab opened, whichever is longer.
 */
async function run(
  browser: Browser,
  base: string,
  count: () => number,
  tabs: number,
  window?: number,
) {
  const email = `upload-tabs-${tabs}-${Date.now()}@example.com`;
  const password = 'a-long-password';
  await signUp(base, email, password);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const first = await context.newPage();
    await signIn(first, base, email, password);
    await first.goto(`${base}/feeds/home/drives`);
    await first.getByLabel('Choose files to upload').setInputFiles({
      name: `harbour-${tabs}.md`,
      mimeType: 'text/markdown',
      buffer: Buffer.from(MD),
    });
    await first
      .getByRole('list', { name: 'Files uploading' })
      .getByText('Processing')
      .waitFor({ timeout: 30_000 });
    const before = count();
    const started = Date.now();
    for (let i = 1; i < tabs; i++) await watching(await context.newPage(), base);
    const opened = Date.now() - started;
    const span = window ?? Math.max(WATCH_MS, opened + 5000);
    // The window is the figure's: the poll runs on its own clock, the bench only waits.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, span - opened)));
    const shown = await Promise.all(
      context
        .pages()
        .map((p) =>
          p.getByRole('list', { name: 'Files uploading' }).getByText('Processing').count(),
        ),
    );
    return {
      requests: count() - before,
      opened,
      window: span,
      shown: shown.filter((n) => n > 0).length,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'upload-tabs-bench-'));
  const server = await startServer({
    port: PORT,
    host: '127.0.0.1',
    dataDir,
    ingest: false,
    uploadJobs: false,
    log: () => {},
  });
  const proxy = await startCountingProxy(server.url, '/api/upload/status');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    console.log(
      `bench/upload-tabs: ${browser.version()} (${CHROMIUM}), ${WATCH_MS / 1000} s watched each, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    // The tabs first: their window (longer while the machine is slow to open them) is the
    // baseline's too, so both count the same poll schedule.
    const target = await run(browser, proxy.url, proxy.count, TABS);
    const baseline = await run(browser, proxy.url, proxy.count, 1, target.window);
    const seconds = (target.window / 1000).toFixed(1);
    console.log(
      `baseline 1 tab: ${baseline.requests} status requests at the server in ${seconds} s`,
    );
    console.log(
      `${TABS} tabs (${target.shown} showing Processing at the end; the other ${TABS - 1} opened in ${(target.opened / 1000).toFixed(1)} s): ${target.requests} status requests in ${seconds} s`,
    );
    const met = target.requests === baseline.requests && baseline.requests > 0;
    console.log(
      `ratio ${TABS} tabs / 1 tab: ${(target.requests / Math.max(1, baseline.requests)).toFixed(2)}x; goal one poll stream (ratio 1.00): ${met ? 'met' : 'NOT met'}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await browser.close();
    await proxy.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
