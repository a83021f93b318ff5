import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createIngestRunner } from '../../server/content/runner';
import { STORAGES } from './harness';
import { fixture, rssOf } from './ingest-fixture-server';
import { ingestSuite, MINUTE } from './ingest-suite';

/**
 * Which sources are read and how: only followed ones, websites (feed or readable text),
 * filings presets, private addresses refused, the first fetch within seconds of a follow, and
 * two runners sharing the jobs of one database.
 */
describe.each(STORAGES)('ingested sources on %s', (storage) => {
  const s = ingestSuite(storage);
  const { path } = s;

  it('polls only sources someone follows', async () => {
    s.server.set(path('dropped.xml'), { body: rssOf(1) });
    const source = await s.follow(s.server.url(path('dropped.xml')));
    await s.runner.runDue();
    const res = await s.h.call('POST', '/connect/public', {
      token: await s.auth(),
      key: randomUUID(),
      body: { key: source.key, delink: true },
    });
    expect(res.status).toBe(200);
    s.h.clock.now += 24 * 60 * MINUTE;
    const before = s.server.hits(path('dropped.xml'));
    await s.runner.runDue();
    expect(s.server.hits(path('dropped.xml'))).toBe(before);
  });

  it('follows a website by its feed, or else by its readable text', async () => {
    s.server.set(path('site/'), {
      body: fixture('websites/with-feed.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    s.server.set(path('site/feed.xml'), { body: fixture('feeds/cdata.xml') });
    const viaFeed = await s.follow(s.server.url(path('site/')));
    expect(viaFeed.kind).toBe('rss');
    expect(viaFeed.link_to_crawl).toBe(s.server.url(path('site/feed.xml')));

    const page = fixture('websites/article.html').toString();
    s.server.set(path('ports.html'), {
      body: page,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const site = await s.follow(s.server.url(path('ports.html')));
    expect(site.kind).toBe('website');
    s.h.clock.now += 24 * 60 * MINUTE;
    await s.runner.runDue();
    expect(await s.titles(viaFeed.source_id)).toEqual(['Yields rise as inflation surprises']);
    expect(await s.titles(site.source_id)).toEqual(['Port volumes climb for a third month']);

    // The same page again is nothing new; a changed page is a new version.
    s.h.clock.now += 30 * MINUTE;
    await s.runner.runDue();
    expect(await s.status(site.source_id)).toMatchObject({ items: 1, last_new: 0 });
    s.server.set(path('ports.html'), {
      body: page.replace('6.2%', '6.4%'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    s.h.clock.now += 30 * MINUTE;
    await s.runner.runDue();
    expect(await s.status(site.source_id)).toMatchObject({ items: 2, last_new: 1 });
  });

  it('reads a filings preset into typed cards', async () => {
    const res = await s.h.call('POST', '/connect/public', {
      token: await s.auth(),
      key: randomUUID(),
      body: { key: 'nzx_filings' },
    });
    expect(res.status).toBe(200);
    const sourceId = res.body.source.source_id as string;
    // The preset points at NZX; here its address is the fixture server's (no internet).
    s.server.set(path('nzx.rss'), { body: fixture('filings/nzx-announcements.rss') });
    await s.h.db
      .updateTable('sources')
      .set({ url: s.server.url(path('nzx.rss')) })
      .where('id', '=', sourceId)
      .execute();
    await s.runner.runDue();
    const docs = await s.h.db
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
    s.server.set(path('private.xml'), { body: rssOf(1) });
    const source = await s.follow(s.server.url(path('private.xml')));
    const strict = createIngestRunner({
      db: s.h.db,
      dialect: s.h.dialect,
      now: () => s.h.clock.now,
      log: () => {},
      fetch: { allowPrivate: false },
    });
    s.h.clock.now += 24 * 60 * MINUTE;
    await strict.runDue();
    expect(s.server.hits(path('private.xml'))).toBe(1); // the probe at follow only
    expect(await s.status(source.source_id)).toMatchObject({
      state: 'error',
      last_error: 'the address 127.0.0.1 is on a private or local network, which is not allowed',
    });
  });

  it('shares due jobs between two runners without running one twice', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => path(`pair-${i}.xml`));
    for (const [i, p] of paths.entries()) {
      s.server.set(p, { body: rssOf(20, 100 * (i + 1)) });
      await s.follow(s.server.url(p));
    }
    s.h.clock.now += 24 * 60 * MINUTE;
    const before = paths.map((p) => s.server.hits(p));
    const other = createIngestRunner({
      db: s.h.db,
      dialect: s.h.dialect,
      now: () => s.h.clock.now,
      log: () => {},
      owner: 'other',
      concurrency: 2,
      fetch: { allowPrivate: true, timeoutMs: 1000 },
    });
    await Promise.all([s.runner.runDue(), other.runDue()]);
    expect(paths.map((p, i) => s.server.hits(p) - before[i])).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('fetches a newly followed source within 5 s', async () => {
    const ticking = createIngestRunner({
      db: s.h.db,
      dialect: s.h.dialect,
      now: () => s.h.clock.now,
      log: () => {},
      intervalMs: 100,
      fetch: { allowPrivate: true },
    });
    ticking.start();
    try {
      s.server.set(path('fresh.xml'), { body: rssOf(2) });
      const source = await s.follow(s.server.url(path('fresh.xml')));
      const started = Date.now();
      while (Date.now() - started < 5000) {
        // Documents commit as they are read, the run's outcome after them.
        const status = await s.status(source.source_id);
        if (status.state === 'ok' && status.items === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await s.status(source.source_id)).toMatchObject({ state: 'ok', items: 2 });
    } finally {
      await ticking.stop();
    }
  });
});
