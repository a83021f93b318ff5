import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestRunner, type IngestRunner } from '../../server/ingest/runner';
import { createHarness, STORAGES, type Harness } from './harness';
import { fixture, rssOf, startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/**
 * The runner against the real app (SQLite and PostgreSQL): a user follows fixture feeds through
 * the API, the runner reads them, and GET /source/status tells the user what happened.
 */

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

let server: FixtureServer;
const env = process.env.FETCH_ALLOW_PRIVATE;
beforeAll(async () => {
  // The follow route probes the address with the same outbound fetch: let it reach 127.0.0.1.
  process.env.FETCH_ALLOW_PRIVATE = '1';
  server = await startFixtureServer();
});
afterAll(async () => {
  process.env.FETCH_ALLOW_PRIVATE = env;
  await server.close();
});

describe.each(STORAGES)('ingestion on %s', (storage) => {
  let h: Harness;
  let email: string;
  let signedInAt = 0;
  let idToken = '';
  let runner: IngestRunner;
  /** The tests move the clock by hours: sign in again when the id token has lapsed. */
  const auth = async () => {
    if (!idToken || h.clock.now - signedInAt > 10 * MINUTE) {
      idToken = await h.signIn(email);
      signedInAt = h.clock.now;
    }
    return idToken;
  };
  const logs: string[] = [];

  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    ({ email } = await h.signUp());
    runner = createIngestRunner({
      db: h.db,
      dialect: h.dialect,
      now: () => h.clock.now,
      log: (line) => logs.push(line),
      owner: `test-${storage}`,
      fetch: { allowPrivate: true, timeoutMs: 1000 },
    });
  });
  afterAll(async () => {
    await runner?.stop();
    await h?.close();
  });

  /** A fixture path unique to this storage's run. */
  const path = (name: string) => `/${storage}/${name}`;

  const follow = async (url: string) => {
    const res = await h.call('POST', '/connect/rss', {
      token: await auth(),
      key: randomUUID(),
      body: { url },
    });
    if (res.status !== 201) throw new Error(`follow failed: ${JSON.stringify(res.body)}`);
    return res.body as { source_id: string; key: string; kind: string; link_to_crawl: string };
  };

  const status = async (sourceId: string) => {
    const res = await h.call('GET', '/source/status', { token: await auth() });
    expect(res.status).toBe(200);
    const row = (res.body.results as Array<{ source_id: string; status: unknown }>).find(
      (r) => r.source_id === sourceId,
    );
    return row?.status as Record<string, unknown>;
  };

  const titles = async (sourceId: string) =>
    (
      await h.db
        .selectFrom('documents')
        .select('title')
        .where('source_id', '=', sourceId)
        .orderBy('unix')
        .execute()
    ).map((r) => r.title);

  it('reads a followed feed into documents, and the status says so', async () => {
    server.set(path('wire.xml'), { body: rssOf(3), etag: '"w1"' });
    const source = await follow(server.url(path('wire.xml')));
    expect(await status(source.source_id)).toMatchObject({ state: 'pending', items: 0 });
    expect(await runner.runDue()).toBe(1);
    expect(await titles(source.source_id)).toEqual(['Story 1', 'Story 2', 'Story 3']);
    expect(await status(source.source_id)).toEqual({
      state: 'ok',
      last_run_at: iso(h.clock.now),
      next_run_at: iso(h.clock.now + 15 * MINUTE),
      items: 3,
      last_new: 3,
      last_error: null,
    });
  });

  it('polls on schedule: a 304 adds nothing, new items once, duplicates never', async () => {
    server.set(path('poll.xml'), { body: rssOf(2), etag: '"p1"' });
    const source = await follow(server.url(path('poll.xml')));
    await runner.runDue();
    // Not due yet: nothing runs, nothing is fetched.
    const fetched = server.hits(path('poll.xml'));
    expect(await runner.runDue()).toBe(0);
    expect(server.hits(path('poll.xml'))).toBe(fetched);

    h.clock.now += 15 * MINUTE;
    expect(await runner.runDue()).toBe(2); // this source and the first test's
    const conditional = server.requests.filter((r) => r.path === path('poll.xml')).at(-1)!;
    expect(conditional.headers['if-none-match']).toBe('"p1"');
    expect(await status(source.source_id)).toMatchObject({ state: 'ok', items: 2, last_new: 0 });

    // The feed grows by two and still carries the first two: only the new ones are added.
    server.set(path('poll.xml'), { body: rssOf(4), etag: '"p2"' });
    h.clock.now += 15 * MINUTE;
    await runner.runDue();
    expect(await titles(source.source_id)).toEqual(['Story 1', 'Story 2', 'Story 3', 'Story 4']);
    expect(await status(source.source_id)).toMatchObject({ items: 4, last_new: 2 });
  });

  it('sends Last-Modified back and takes a 304 as nothing new', async () => {
    const stamp = 'Mon, 03 Mar 2025 09:00:00 GMT';
    server.set(path('lm.xml'), { body: rssOf(1), lastModified: stamp });
    const source = await follow(server.url(path('lm.xml')));
    await runner.runDue();
    h.clock.now += 15 * MINUTE;
    await runner.runDue();
    const last = server.requests.filter((r) => r.path === path('lm.xml')).at(-1)!;
    expect(last.headers['if-modified-since']).toBe(stamp);
    expect(await status(source.source_id)).toMatchObject({ state: 'ok', items: 1, last_new: 0 });
  });

  it.each([
    ['gone', { status: 404, body: 'no' }, 'the server answered 404 Not Found'],
    [
      'malformed',
      { body: fixture('feeds/malformed.xml') },
      "the feed is not well-formed XML: Expected closing tag 'title' (opened in line 11, col 7) instead of closing tag 'titel'. (line 11)",
    ],
    ['silent', { handle: () => {} }, 'timed out after 1 s'],
    [
      'huge',
      {
        handle: (_req: unknown, res: import('node:http').ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/rss+xml' });
          const chunk = Buffer.alloc(256 * 1024, 0x20);
          let sent = 0;
          const pump = () => {
            while (sent < 20 * 1024 * 1024 && !res.destroyed) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end();
          };
          pump();
        },
      },
      'the feed is larger than 10 MB',
    ],
  ] as const)('a %s feed gives a clear error and backs off', async (name, route, message) => {
    server.set(path(`${name}.xml`), { body: rssOf(1) });
    const source = await follow(server.url(path(`${name}.xml`)));
    await runner.runDue();
    server.set(path(`${name}.xml`), route);
    h.clock.now += 60 * MINUTE;
    await runner.runDue();
    expect(await status(source.source_id)).toMatchObject({
      state: 'error',
      items: 1,
      last_error: message,
      next_run_at: iso(h.clock.now + MINUTE),
    });
    // The second failure waits twice as long; a good answer clears the error.
    h.clock.now += MINUTE;
    await runner.runDue();
    expect(await status(source.source_id)).toMatchObject({
      next_run_at: iso(h.clock.now + 2 * MINUTE),
    });
    server.set(path(`${name}.xml`), { body: rssOf(2) });
    h.clock.now += 2 * MINUTE;
    await runner.runDue();
    expect(await status(source.source_id)).toMatchObject({
      state: 'ok',
      items: 2,
      last_new: 1,
      last_error: null,
    });
  });

  it('polls only sources someone follows', async () => {
    server.set(path('dropped.xml'), { body: rssOf(1) });
    const source = await follow(server.url(path('dropped.xml')));
    await runner.runDue();
    const res = await h.call('POST', '/connect/public', {
      token: await auth(),
      key: randomUUID(),
      body: { key: source.key, delink: true },
    });
    expect(res.status).toBe(200);
    h.clock.now += 24 * 60 * MINUTE;
    const before = server.hits(path('dropped.xml'));
    await runner.runDue();
    expect(server.hits(path('dropped.xml'))).toBe(before);
  });

  it('follows a website by its feed, or else by its readable text', async () => {
    server.set(path('site/'), {
      body: fixture('websites/with-feed.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    server.set(path('site/feed.xml'), { body: fixture('feeds/cdata.xml') });
    const viaFeed = await follow(server.url(path('site/')));
    expect(viaFeed.kind).toBe('rss');
    expect(viaFeed.link_to_crawl).toBe(server.url(path('site/feed.xml')));

    const page = fixture('websites/article.html').toString();
    server.set(path('ports.html'), {
      body: page,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const site = await follow(server.url(path('ports.html')));
    expect(site.kind).toBe('website');
    h.clock.now += 24 * 60 * MINUTE;
    await runner.runDue();
    expect(await titles(viaFeed.source_id)).toEqual(['Yields rise as inflation surprises']);
    expect(await titles(site.source_id)).toEqual(['Port volumes climb for a third month']);

    // The same page again is nothing new; a changed page is a new version.
    h.clock.now += 30 * MINUTE;
    await runner.runDue();
    expect(await status(site.source_id)).toMatchObject({ items: 1, last_new: 0 });
    server.set(path('ports.html'), {
      body: page.replace('6.2%', '6.4%'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    h.clock.now += 30 * MINUTE;
    await runner.runDue();
    expect(await status(site.source_id)).toMatchObject({ items: 2, last_new: 1 });
  });

  it('reads a filings preset into typed cards', async () => {
    const res = await h.call('POST', '/connect/public', {
      token: await auth(),
      key: randomUUID(),
      body: { key: 'nzx_filings' },
    });
    expect(res.status).toBe(200);
    const sourceId = res.body.source.source_id as string;
    // The preset points at NZX; here its address is the fixture server's (no internet).
    server.set(path('nzx.rss'), { body: fixture('filings/nzx-announcements.rss') });
    await h.db
      .updateTable('sources')
      .set({ url: server.url(path('nzx.rss')) })
      .where('id', '=', sourceId)
      .execute();
    await runner.runDue();
    const docs = await h.db
      .selectFrom('documents')
      .select(['company_name', 'security_code', 'category', 'category_tab', 'market'])
      .where('source_id', '=', sourceId)
      .orderBy('unix', 'desc')
      .execute();
    expect(docs).toEqual([
      {
        company_name: 'Air New Zealand Limited',
        security_code: 'AIR',
        category: 'Market Update',
        category_tab: 'exchanges',
        market: 'nz_capital_markets',
      },
      {
        company_name: 'Fisher & Paykel Healthcare Corporation Limited',
        security_code: 'FPH',
        category: 'Half Year Results',
        category_tab: 'exchanges',
        market: 'nz_capital_markets',
      },
      {
        company_name: 'Spark New Zealand Limited',
        security_code: 'SPK',
        category: 'General',
        category_tab: 'exchanges',
        market: 'nz_capital_markets',
      },
    ]);
  });

  it('refuses private addresses when FETCH_ALLOW_PRIVATE is off', async () => {
    server.set(path('private.xml'), { body: rssOf(1) });
    const source = await follow(server.url(path('private.xml')));
    const strict = createIngestRunner({
      db: h.db,
      dialect: h.dialect,
      now: () => h.clock.now,
      log: () => {},
      fetch: { allowPrivate: false },
    });
    h.clock.now += 24 * 60 * MINUTE;
    await strict.runDue();
    expect(server.hits(path('private.xml'))).toBe(1); // the probe at follow only
    expect(await status(source.source_id)).toMatchObject({
      state: 'error',
      last_error: 'the address 127.0.0.1 is on a private or local network, which is not allowed',
    });
  });

  it('shares due jobs between two runners without running one twice', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => path(`pair-${i}.xml`));
    for (const [i, p] of paths.entries()) {
      server.set(p, { body: rssOf(20, 100 * (i + 1)) });
      await follow(server.url(p));
    }
    h.clock.now += 24 * 60 * MINUTE;
    const before = paths.map((p) => server.hits(p));
    const other = createIngestRunner({
      db: h.db,
      dialect: h.dialect,
      now: () => h.clock.now,
      log: () => {},
      owner: 'other',
      concurrency: 2,
      fetch: { allowPrivate: true, timeoutMs: 1000 },
    });
    await Promise.all([runner.runDue(), other.runDue()]);
    expect(paths.map((p, i) => server.hits(p) - before[i])).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('fetches a newly followed source within 5 s', async () => {
    const ticking = createIngestRunner({
      db: h.db,
      dialect: h.dialect,
      now: () => h.clock.now,
      log: () => {},
      intervalMs: 100,
      fetch: { allowPrivate: true },
    });
    ticking.start();
    try {
      server.set(path('fresh.xml'), { body: rssOf(2) });
      const source = await follow(server.url(path('fresh.xml')));
      const started = Date.now();
      while (Date.now() - started < 5000) {
        if ((await status(source.source_id)).items === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await status(source.source_id)).toMatchObject({ state: 'ok', items: 2 });
    } finally {
      await ticking.stop();
    }
  });
});
