import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { freshPostgresDatabase, REAL_POSTGRES_URL } from './harness';
import { rssOf, startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/**
 * Two server processes' worth of runners on one database share the jobs: each due job is
 * claimed by one of them (SQLite: one UPDATE ... RETURNING; PostgreSQL: FOR UPDATE SKIP
 * LOCKED), so every feed is fetched once and every item stored once.
 */

const FEEDS = 8;

let fixtures: FixtureServer;
const env = process.env.FETCH_ALLOW_PRIVATE;
beforeAll(async () => {
  process.env.FETCH_ALLOW_PRIVATE = '1';
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  if (env === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
  else process.env.FETCH_ALLOW_PRIVATE = env;
  await fixtures.close();
});

const backends: Array<'sqlite' | 'postgres'> = REAL_POSTGRES_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

describe.each(backends)('two servers on one %s database', (backend) => {
  let a: RunningServer;
  let b: RunningServer;
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      const fresh = await freshPostgresDatabase(REAL_POSTGRES_URL!);
      databaseUrl = fresh.url;
      drop = fresh.drop;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'ingest-shared-'));
    }
    const opts = {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl,
      seed: false,
      ingest: false as const,
      log: () => {},
    };
    a = await startServer(opts);
    b = await startServer(opts);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (server: RunningServer, path: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
        ...(token ? { token } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('runs each due job once between them', async () => {
    const email = `shared-${randomUUID().slice(0, 8)}@example.com`;
    const signup = await post(a, '/auth/signup', {
      name: 'Shared',
      email,
      password: 'correct-horse',
    });
    expect(signup.status).toBe(201);
    const token = signup.body.id_token as string;
    const paths = Array.from({ length: FEEDS }, (_, i) => `/${backend}/shared-${i}.xml`);
    for (const [i, path] of paths.entries()) {
      fixtures.set(path, { body: rssOf(50, i * 1000) });
      // Followed half through each server.
      const res = await post(i % 2 ? b : a, '/connect/rss', { url: fixtures.url(path) }, token);
      expect(res.status).toBe(201);
    }
    const before = paths.map((p) => fixtures.hits(p));
    const [ranA, ranB] = await Promise.all([a.ingest.runDue(), b.ingest.runDue()]);
    expect(ranA + ranB).toBe(FEEDS);
    // One fetch per feed beyond the probe made when it was followed.
    expect(paths.map((p, i) => fixtures.hits(p) - before[i])).toEqual(Array(FEEDS).fill(1));

    const status = await fetch(`${a.url}/api/source/status`, { headers: { token } });
    const { results } = (await status.json()) as {
      results: Array<{ status: { state: string; items: number; last_error: string | null } }>;
    };
    expect(results.map((r) => [r.status.state, r.status.items, r.status.last_error])).toEqual(
      Array(FEEDS).fill(['ok', 50, null]),
    );
  });
});
