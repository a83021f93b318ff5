import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { createIngestRunner, type IngestRunner } from '../../server/content/runner';
import { createHarness, type Harness, type Storage } from './harness';
import { startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/**
 * What the runner suites share: the real app on one storage (createHarness), a local fixture
 * server, a signed-up user who follows feeds through the API, a runner on the harness's clock,
 * and readers of what the user is told (GET /source/status) and what was stored.
 */

export const MINUTE = 60_000;
export const iso = (ms: number) => new Date(ms).toISOString();

export const ingestSuite = (storage: Storage) => {
  const env = process.env.FETCH_ALLOW_PRIVATE;
  let email = '';
  let signedInAt = 0;
  let idToken = '';
  const s = {
    h: undefined as unknown as Harness,
    server: undefined as unknown as FixtureServer,
    runner: undefined as unknown as IngestRunner,
    logs: [] as string[],
    /** A fixture path unique to this storage's run. */
    path: (name: string) => `/${storage}/${name}`,
    /** The tests move the clock by hours: sign in again when the id token has lapsed. */
    auth: async () => {
      if (!idToken || s.h.clock.now - signedInAt > 10 * MINUTE) {
        idToken = await s.h.signIn(email);
        signedInAt = s.h.clock.now;
      }
      return idToken;
    },
    follow: async (url: string) => {
      const res = await s.h.call('POST', '/connect/rss', {
        token: await s.auth(),
        key: randomUUID(),
        body: { url },
      });
      if (res.status !== 201) throw new Error(`follow failed: ${JSON.stringify(res.body)}`);
      return res.body as { source_id: string; key: string; kind: string; link_to_crawl: string };
    },
    status: async (sourceId: string) => {
      const res = await s.h.call('GET', '/source/status', { token: await s.auth() });
      expect(res.status).toBe(200);
      const row = (res.body.results as Array<{ source_id: string; status: unknown }>).find(
        (r) => r.source_id === sourceId,
      );
      return row?.status as Record<string, unknown>;
    },
    titles: async (sourceId: string) =>
      (
        await s.h.db
          .selectFrom('documents')
          .select('title')
          .where('source_id', '=', sourceId)
          .orderBy('unix')
          .execute()
      ).map((r) => r.title),
  };

  beforeAll(async () => {
    // The follow route probes the address with the same outbound fetch: let it reach 127.0.0.1.
    process.env.FETCH_ALLOW_PRIVATE = '1';
    s.server = await startFixtureServer();
    s.h = await createHarness(storage, { seed: false });
    ({ email } = await s.h.signUp());
    s.runner = createIngestRunner({
      db: s.h.db,
      dialect: s.h.dialect,
      now: () => s.h.clock.now,
      log: (line) => s.logs.push(line),
      owner: `test-${storage}`,
      fetch: { allowPrivate: true, timeoutMs: 1000 },
    });
  });
  afterAll(async () => {
    if (env === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
    else process.env.FETCH_ALLOW_PRIVATE = env;
    await s.runner?.stop();
    await s.h?.close();
    await s.server?.close();
  });
  return s;
};
