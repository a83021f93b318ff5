import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { AUTH_POLL_MS } from '../contract/constants';
import { startServer, type RunningServer } from '../server/start';
import { createHeadlessWorkspace, type HeadlessWorkspace } from '../worker/headless';
import {
  createBroadcastHub,
  createManualClock,
  createMemoryLocks,
  type ManualClock,
} from '../worker/testing';
import { createPooledFetch, type PooledFetch } from './http-fetch';

/**
 * bench/tabs: what N open tabs cost the server. For 1, 4 and 8 tabs it measures auth polls per
 * poll interval and the connections opened while polling, for
 *   shared    one SharedWorker workspace serving N tab ports (the design),
 *   baseline  N independent workspaces, one per tab, no coordination (a per-tab data layer),
 *   fallback  N dedicated workers sharing Web Locks and BroadcastChannel (no SharedWorker).
 * Each workspace has its own HTTP keep-alive pool. Time is a manual clock driving K intervals.
 * Goal: shared / 1 tab = 1.00 whatever the tab count. Exits non-zero if it is missed.
 */

const TAB_COUNTS = [1, 4, 8];
const INTERVALS = 5;
const DEMO = { email: 'demo@needl.ai', password: 'demo-password' };

type Measure = { pollsPerInterval: number; connectionsOpened: number };
type Setup = { workspaces: HeadlessWorkspace[]; pools: PooledFetch[]; clock: ManualClock };

async function settleConnections(server: RunningServer) {
  // Sockets closed by the client reach the server's count a moment later.
  for (let i = 0; i < 200 && server.metrics.openConnections > 0; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measure(server: RunningServer, setup: Setup): Promise<Measure> {
  const { workspaces, pools, clock } = setup;
  for (const ws of workspaces) await ws.workspace.idle();
  // Measure the steady state: the sign-in's connections are closed first.
  for (const pool of pools) pool.reset();
  await settleConnections(server);
  const polls = server.metrics.authPolls;
  const opened = server.metrics.connectionsOpened;
  for (let i = 0; i < INTERVALS; i += 1) {
    await clock.advance(AUTH_POLL_MS);
    for (const ws of workspaces) await ws.workspace.idle();
  }
  const result = {
    pollsPerInterval: (server.metrics.authPolls - polls) / INTERVALS,
    connectionsOpened: server.metrics.connectionsOpened - opened,
  };
  for (const ws of workspaces) await ws.close();
  for (const pool of pools) pool.reset();
  await settleConnections(server);
  return result;
}

async function shared(baseUrl: string, tabs: number): Promise<Setup> {
  const clock = createManualClock();
  const pool = createPooledFetch();
  const ws = createHeadlessWorkspace({ baseUrl, clock, fetch: pool.fetch, warn: () => {} });
  const opened = [];
  for (let i = 0; i < tabs; i += 1) opened.push(await ws.tab(`tab-${i}`));
  await opened[0].api.call('auth.signIn', DEMO);
  return { workspaces: [ws], pools: [pool], clock };
}

async function baseline(baseUrl: string, tabs: number): Promise<Setup> {
  const clock = createManualClock();
  const setup: Setup = { workspaces: [], pools: [], clock };
  for (let i = 0; i < tabs; i += 1) {
    const pool = createPooledFetch();
    // Its own locks and channel: nothing is shared between the tabs' data layers.
    const ws = createHeadlessWorkspace({ baseUrl, clock, fetch: pool.fetch, warn: () => {} });
    const tab = await ws.tab(`tab-${i}`);
    await tab.api.call('auth.signIn', DEMO);
    setup.workspaces.push(ws);
    setup.pools.push(pool);
  }
  return setup;
}

async function fallback(baseUrl: string, tabs: number): Promise<Setup> {
  const clock = createManualClock();
  const profile = {
    clock,
    indexedDB: new IDBFactory(),
    locks: createMemoryLocks(),
    broadcastChannel: createBroadcastHub().channel,
  };
  const setup: Setup = { workspaces: [], pools: [], clock };
  const opened = [];
  for (let i = 0; i < tabs; i += 1) {
    const pool = createPooledFetch();
    const ws = createHeadlessWorkspace({ baseUrl, fetch: pool.fetch, warn: () => {}, ...profile });
    opened.push(await ws.tab(`tab-${i}`));
    setup.workspaces.push(ws);
    setup.pools.push(pool);
  }
  await opened[0].api.call('auth.signIn', DEMO);
  for (const tab of opened.slice(1)) await tab.waitFor((e) => e.type === 'session');
  return setup;
}

const fixed = (n: number) => n.toFixed(2);
const pad = (cells: (string | number)[]) =>
  cells.map((c, i) => String(c).padStart(i ? 10 : 5)).join(' ');

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-tabs-'));
  const server = await startServer({ port: 0, dataDir, seed: true, log: () => {} });
  const baseUrl = `${server.url}/api`;
  const rows: { tabs: number; shared: Measure; baseline: Measure; fallback: Measure }[] = [];
  try {
    for (const tabs of TAB_COUNTS) {
      rows.push({
        tabs,
        shared: await measure(server, await shared(baseUrl, tabs)),
        baseline: await measure(server, await baseline(baseUrl, tabs)),
        fallback: await measure(server, await fallback(baseUrl, tabs)),
      });
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const one = rows[0].shared;
  console.log(`bench/tabs: ${INTERVALS} auth intervals of ${AUTH_POLL_MS} ms (manual clock)\n`);
  console.log('auth polls per interval');
  console.log(pad(['tabs', 'shared', 'baseline', 'fallback', 'shared/1tab', 'base/shared']));
  for (const r of rows) {
    console.log(
      pad([
        r.tabs,
        fixed(r.shared.pollsPerInterval),
        fixed(r.baseline.pollsPerInterval),
        fixed(r.fallback.pollsPerInterval),
        fixed(r.shared.pollsPerInterval / one.pollsPerInterval),
        fixed(r.baseline.pollsPerInterval / r.shared.pollsPerInterval),
      ]),
    );
  }
  console.log('\nconnections opened while polling');
  console.log(pad(['tabs', 'shared', 'baseline', 'fallback', 'shared/1tab', 'base/shared']));
  for (const r of rows) {
    console.log(
      pad([
        r.tabs,
        r.shared.connectionsOpened,
        r.baseline.connectionsOpened,
        r.fallback.connectionsOpened,
        fixed(r.shared.connectionsOpened / one.connectionsOpened),
        fixed(r.baseline.connectionsOpened / r.shared.connectionsOpened),
      ]),
    );
  }

  const missed = rows.filter(
    (r) =>
      r.shared.pollsPerInterval !== one.pollsPerInterval ||
      r.shared.connectionsOpened !== one.connectionsOpened,
  );
  if (missed.length) {
    console.error(
      `\ngoal missed: shared/1tab is not 1.00 for ${missed.map((r) => `${r.tabs} tabs`).join(', ')}`,
    );
    return 1;
  }
  console.log('\ngoal met: shared/1tab = 1.00 for every tab count');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench/tabs failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
