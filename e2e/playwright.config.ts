import { defineConfig } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 4173);
// A fresh database per run. The config is read again by each worker process: the first
// evaluation fixes the directory in the environment the workers inherit.
process.env.E2E_DATA_DIR ??= join(root, '.tmp', `e2e-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
mkdirSync(dataDir, { recursive: true });
// Recorded filings answers: the server reads preset K from PRESET_BASE_URL/K, and
// e2e/acceptance.spec.ts serves them on this port while it runs (E2E_FIXTURE_PORT, by default
// E2E_PORT + 218: 4391). Kept in the environment, like the data directory, for the workers.
process.env.E2E_FIXTURE_PORT ??= String(port + 218);
const fixturePort = Number(process.env.E2E_FIXTURE_PORT);
// The screenshots' own server (E2E_PORT + 1) and database.
const layoutPort = port + 1;
const layoutDataDir = `${dataDir}-layout`;
mkdirSync(layoutDataDir, { recursive: true });

/**
 * The app server on `at`, over the database in `dir`: compiled, as `npm start` runs it
 * (E2E_SERVER_BUNDLE: another bundle than dist-server/main.mjs, e.g. one's own build).
 */
const server = (at: number, dir: string) => ({
  command: `node --enable-source-maps ${process.env.E2E_SERVER_BUNDLE ?? 'dist-server/main.mjs'}`,
  cwd: root,
  url: `http://127.0.0.1:${at}/api/health`,
  // Specs serve fixture feeds from 127.0.0.1: the server may fetch them (never in production).
  env: {
    PORT: String(at),
    DATA_DIR: dir,
    PRODUCT: 'needl',
    FETCH_ALLOW_PRIVATE: '1',
    PRESET_BASE_URL: `http://127.0.0.1:${fixturePort}`,
  },
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
});

/**
 * Playwright against the built app and server (`vite build` and `npm run build:server` first;
 * package.json test:e2e does both) with a temporary database, driving Debian's Chromium.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: join(root, 'test-results'),
  // Two workers (the machine's 2 cores; much of a journey is waiting on the server): the
  // screenshots' project on its own server, one file at a time, and the journeys beside it,
  // two files at a time once the screenshots are done. Journeys that change the demo user's
  // workspace take turns (helpers.ts holdDemoUser); those with users of their own run freely.
  // E2E_WORKERS=1 runs one file at a time, as before.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1600, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // The screenshot expectations (layout-widths.spec.ts, named "-chromium-") read the demo
    // workspace as seeded: their own server and database, untouched by the journeys.
    {
      name: 'chromium',
      testMatch: 'layout-widths.spec.ts',
      workers: 1,
      use: { browserName: 'chromium', baseURL: `http://127.0.0.1:${layoutPort}` },
    },
    {
      name: 'journeys',
      testIgnore: 'layout-widths.spec.ts',
      use: { browserName: 'chromium' },
    },
  ],
  webServer: [server(port, dataDir), server(layoutPort, layoutDataDir)],
});
