import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STORAGES } from './harness';
import { rssOf } from './ingest-fixture-server';
import { ingestSuite } from './ingest-suite';

/**
 * Following a large feed (issue 17): POST /connect/rss answers once the address is checked from
 * the first bytes of its answer, the feed is read and stored by the runner, the server answers
 * other requests meanwhile, and following an address again reads nothing.
 */
describe.each(STORAGES)('following a large feed on %s', (storage) => {
  const s = ingestSuite(storage);
  const { path } = s;

  const follow = async (url: string) =>
    s.h.call('POST', '/connect/rss', { token: await s.auth(), key: randomUUID(), body: { url } });

  const stored = async (sourceId: string) =>
    Number(
      (
        await s.h.db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('source_id', '=', sourceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers from the first bytes, before the feed is read; the runner stores it all', async () => {
    const feed = rssOf(3000, 1, 'Harbour wire');
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let answers = 0;
    s.server.set(path('big.xml'), {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
        if (++answers > 1) {
          res.end(feed);
          return;
        }
        // The first answer sends its first 300 KB, then waits: a follow that needed the whole
        // feed would wait with it.
        res.write(feed.slice(0, 300_000));
        void released.then(() => {
          if (!res.destroyed) res.end(feed.slice(300_000));
        });
      },
    });
    const res = await follow(s.server.url(path('big.xml')));
    release();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'rss',
      label: 'Harbour wire',
      status: { state: 'pending', items: 0 },
    });
    expect(await stored(res.body.source_id)).toBe(0);

    await s.runner.runDue();
    expect(await stored(res.body.source_id)).toBe(3000);
    expect(await s.status(res.body.source_id)).toMatchObject({
      state: 'ok',
      items: 3000,
      last_new: 3000,
      last_error: null,
    });
  });

  it('follows an address it already follows again without fetching it', async () => {
    s.server.set(path('again.xml'), { body: rssOf(5, 1, 'Quay notes') });
    const first = await follow(s.server.url(path('again.xml')));
    expect(first.status).toBe(201);
    expect(s.server.hits(path('again.xml'))).toBe(1);
    const again = await Promise.all(
      Array.from({ length: 5 }, () => follow(s.server.url(path('again.xml')))),
    );
    expect(again.map((r) => [r.status, r.body.source_id, r.body.followed])).toEqual(
      Array(5).fill([201, first.body.source_id, true]),
    );
    expect(s.server.hits(path('again.xml'))).toBe(1);
  });

  it('answers /api/health while a large feed is being stored', async () => {
    s.server.set(path('long.xml'), { body: rssOf(2000, 1, 'Long wire') });
    const source = (await follow(s.server.url(path('long.xml')))).body as { source_id: string };
    let done = false;
    const run = s.runner.runDue().finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      const health = await s.h.call('GET', '/health');
      expect(health.status).toBe(200);
      if (!done) seen.push(await stored(source.source_id));
      // Polling pace: let timers and I/O run between health checks.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await run;
    // Health answered while part of the feed was stored and part was not.
    expect(seen.some((n) => n > 0 && n < 2000)).toBe(true);
    expect(await stored(source.source_id)).toBe(2000);
  });
});
