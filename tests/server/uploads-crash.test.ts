import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * Killing the server mid-processing loses and duplicates nothing: a real server process
 * (`node --import tsx server/main.ts`, SQLite and the local disk in a temporary DATA_DIR)
 * processes uploaded PDFs one at a time; it is SIGKILLed while one is claimed and others are
 * done; a restarted server takes the claimed one over when its lease lapses, and in the end
 * every file is COMPLETED with exactly one document, one feed entry and one set of regions.
 */

const FILES = 12;
const ROOT = join(import.meta.dirname, '..', '..');
const PDF = readFileSync(join(ROOT, 'tests', 'fixtures', 'uploads', 'nike-10k-item1.pdf'));

let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'uploads-crash-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const startProcess = (): Promise<{ child: ChildProcess; url: string }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      DIST_DIR: join(dataDir, 'no-dist'),
      UPLOAD_LEASE_SECONDS: '2',
      UPLOAD_INTERVAL_MS: '200',
      UPLOAD_CONCURRENCY: '1',
      UPLOAD_FILE_COUNT_LIMIT: '20',
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

const api = async (
  url: string,
  method: string,
  path: string,
  init: { body?: unknown; token?: string } = {},
) => {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
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
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

it('loses and duplicates nothing when killed mid-processing', async () => {
  const first = await startProcess();
  const signup = await api(first.url, 'POST', '/auth/signup', {
    body: { name: 'Crash', email: 'crash@example.com', password: 'correct-horse' },
  });
  expect(signup.status).toBe(201);
  const token = signup.body.id_token as string;
  const init = await api(first.url, 'POST', '/upload/init', {
    token,
    body: {
      source: 'needldrive',
      files: Array.from({ length: FILES }, (_, i) => ({
        id: `f${i}`,
        name: `nike-${i}.pdf`,
        mime_type: 'application/pdf',
        size: PDF.length,
      })),
    },
  });
  expect(init.status).toBe(200);
  const configs = init.body.upload_configs as Array<{
    id: string;
    upload_link: string;
    headers: Record<string, string>;
    metadata_fields: { bucket: string; key: string };
  }>;
  for (const cfg of configs) {
    const res = await fetch(`${first.url}${cfg.upload_link}`, {
      method: 'PUT',
      headers: cfg.headers,
      body: PDF,
    });
    expect(res.status).toBe(200);
  }

  const db = new SqliteDatabase(join(dataDir, 'workspace.db'), {
    readonly: true,
    fileMustExist: true,
  });
  const states = () =>
    db
      .prepare(
        `SELECT sum(status = 'COMPLETED') AS done, sum(lease_owner IS NOT NULL) AS claimed
           FROM upload_files`,
      )
      .get() as { done: number; claimed: number };
  try {
    const complete = await api(first.url, 'POST', '/upload/complete', {
      token,
      body: {
        source: 'needldrive',
        files: configs.map((c, i) => ({
          bucket: c.metadata_fields.bucket,
          key: c.metadata_fields.key,
          metadata: { name: `nike-${i}.pdf`, mime_type: 'application/pdf', id: c.id },
        })),
      },
    });
    expect(complete.status).toBe(200);
    const feedId = complete.body.feed_id as string;

    // Some files done, one claimed and not: kill it there.
    const atKill = await waitFor('a file mid-processing', 120_000, () => {
      const s = states();
      return s.done > 0 && s.done < FILES && s.claimed > 0 ? s : null;
    });
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(atKill.done).toBeLessThan(FILES);
    expect(states().done).toBeLessThan(FILES);

    const second = await startProcess();
    await waitFor('every file processed on the restarted server', 150_000, async () => {
      const res = await api(second.url, 'GET', `/upload/status?feed_id=${feedId}`, {
        token,
      }).catch(() => null);
      return res?.body.done === true;
    });
    const final = await api(second.url, 'GET', `/upload/status?feed_id=${feedId}`, { token });
    const files = final.body.files as Array<{ status: string; deeplink: string }>;
    expect(files.map((f) => f.status)).toEqual(Array(FILES).fill('COMPLETED'));
    expect(new Set(files.map((f) => f.deeplink)).size).toBe(FILES);

    const totals = db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT dedupe_key) AS keys FROM documents d
           JOIN sources s ON s.id = d.source_id WHERE s.key LIKE 'needldrive_%'`,
      )
      .get() as { n: number; keys: number };
    expect(totals).toEqual({ n: FILES, keys: FILES });
    const entries = db
      .prepare(
        `SELECT count(*) AS n FROM feed_entries e JOIN upload_files u ON u.document_id = e.document_id
           WHERE e.removed = 0`,
      )
      .get() as { n: number };
    expect(entries.n).toBe(FILES);
    const regions = db
      .prepare(
        `SELECT count(DISTINCT document_id) AS docs, count(*) / count(DISTINCT document_id) AS per
           FROM document_regions`,
      )
      .get() as { docs: number; per: number };
    const perDoc = db
      .prepare('SELECT count(*) AS n FROM document_regions GROUP BY document_id')
      .all() as Array<{ n: number }>;
    expect(regions.docs).toBe(FILES);
    expect(new Set(perDoc.map((r) => r.n)).size).toBe(1);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  } finally {
    db.close();
  }
}, 400_000);
