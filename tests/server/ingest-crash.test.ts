import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rssOf, startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/**
 * Killing the server mid-ingestion loses and duplicates nothing: a real server process
 * (`tsx server/main.ts`, SQLite in a temporary DATA_DIR) reads a large fixture feed in
 * batches; it is SIGKILLed once some batches have committed and others not; a restarted server
 * takes the job over when the lease lapses, and in the end every item is there exactly once.
 */

/**
 * 5,000 items are 100 batches of 50 (the runner's batch size): room enough to kill the server
 * between two of them, at a quarter of the time 20,000 took to read twice over.
 */
const ITEMS = 5_000;
const ROOT = join(import.meta.dirname, '..', '..');

let fixtures: FixtureServer;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  fixtures.set('/big.xml', { body: rssOf(ITEMS) });
  dataDir = mkdtempSync(join(tmpdir(), 'ingest-crash-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await fixtures.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `tsx server/main.ts` and answers its base URL once it listens. */
const startProcess = (): Promise<{ child: ChildProcess; url: string }> => {
  // node itself with tsx's loader, not the tsx CLI: the CLI runs the server in a child process
  // of its own, which a SIGKILL to the CLI would leave running.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      DIST_DIR: join(dataDir, 'no-dist'),
      FETCH_ALLOW_PRIVATE: '1',
      INGEST_LEASE_SECONDS: '2',
      INGEST_INTERVAL_MS: '200',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const port = /workspace on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
};

const api = async (url: string, path: string, init: { body?: unknown; token?: string } = {}) => {
  const res = await fetch(`${url}/api${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      ...(init.body === undefined ? {} : { 'idempotency-key': randomUUID() }),
      ...(init.token ? { token: init.token } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const waitFor = async <T>(what: string, ms: number, check: () => T | Promise<T>) => {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

it('loses and duplicates nothing when killed mid-ingestion', async () => {
  const first = await startProcess();
  const signup = await api(first.url, '/auth/signup', {
    body: { name: 'Crash', email: 'crash@example.com', password: 'correct-horse' },
  });
  expect(signup.status).toBe(201);
  const token = signup.body.id_token as string;
  const followed = await api(first.url, '/connect/rss', {
    token,
    body: { url: fixtures.url('/big.xml') },
  });
  expect(followed.status).toBe(201);
  const sourceId = followed.body.source_id as string;

  const db = new SqliteDatabase(join(dataDir, 'workspace.db'), {
    readonly: true,
    fileMustExist: true,
  });
  const count = () =>
    (
      db.prepare('SELECT count(*) AS n FROM documents WHERE source_id = ?').get(sourceId) as {
        n: number;
      }
    ).n;
  try {
    // Some batches committed, not all: kill it there.
    const atKill = await waitFor('the first batches', 120_000, () => {
      const n = count();
      return n > 0 && n < ITEMS ? n : 0;
    });
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(atKill).toBeLessThan(ITEMS);
    const afterKill = count();
    expect(afterKill).toBeLessThan(ITEMS);

    const second = await startProcess();
    await waitFor('the job to finish on the restarted server', 150_000, async () => {
      // A connection the busy server dropped is not an answer: ask again.
      const res = await api(second.url, '/source/status', { token }).catch(() => null);
      if (!res) return false;
      const row = (
        res.body.results as Array<{ source_id: string; status: { state: string } }>
      ).find((r) => r.source_id === sourceId);
      return row?.status.state === 'ok';
    });
    const totals = db
      .prepare(
        'SELECT count(*) AS n, count(DISTINCT dedupe_key) AS keys FROM documents WHERE source_id = ?',
      )
      .get(sourceId) as { n: number; keys: number };
    expect(totals).toEqual({ n: ITEMS, keys: ITEMS });
    const entries = db
      .prepare(
        `SELECT count(*) AS n FROM feed_entries e JOIN documents d ON d.id = e.document_id
           WHERE d.source_id = ? AND e.removed = 0`,
      )
      .get(sourceId) as { n: number };
    expect(entries.n).toBe(ITEMS);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  } finally {
    db.close();
  }
}, 360_000);
