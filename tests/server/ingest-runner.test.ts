import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { STORAGES } from './harness';
import { fixture, rssOf } from './ingest-fixture-server';
import { iso, ingestSuite, MINUTE } from './ingest-suite';

/**
 * The runner against the real app (SQLite and PostgreSQL): a user follows fixture feeds through
 * the API, the runner reads them, and GET /source/status tells the user what happened.
 */
describe.each(STORAGES)('ingestion runs on %s', (storage) => {
  const s = ingestSuite(storage);
  const { path } = s;

  it('reads a followed feed into documents, and the status says so', async () => {
    s.server.set(path('wire.xml'), { body: rssOf(3), etag: '"w1"' });
    const source = await s.follow(s.server.url(path('wire.xml')));
    expect(await s.status(source.source_id)).toMatchObject({ state: 'pending', items: 0 });
    expect(await s.runner.runDue()).toBe(1);
    expect(await s.titles(source.source_id)).toEqual(['Story 1', 'Story 2', 'Story 3']);
    expect(await s.status(source.source_id)).toEqual({
      state: 'ok',
      last_run_at: iso(s.h.clock.now),
      next_run_at: iso(s.h.clock.now + 15 * MINUTE),
      items: 3,
      last_new: 3,
      last_error: null,
    });
  });

  it('polls on schedule: a 304 adds nothing, new items once, duplicates never', async () => {
    s.server.set(path('poll.xml'), { body: rssOf(2), etag: '"p1"' });
    const source = await s.follow(s.server.url(path('poll.xml')));
    await s.runner.runDue();
    // Not due yet: nothing runs, nothing is fetched.
    const fetched = s.server.hits(path('poll.xml'));
    expect(await s.runner.runDue()).toBe(0);
    expect(s.server.hits(path('poll.xml'))).toBe(fetched);

    s.h.clock.now += 15 * MINUTE;
    expect(await s.runner.runDue()).toBe(2); // this source and the first test's
    const conditional = s.server.requests.filter((r) => r.path === path('poll.xml')).at(-1)!;
    expect(conditional.headers['if-none-match']).toBe('"p1"');
    expect(await s.status(source.source_id)).toMatchObject({ state: 'ok', items: 2, last_new: 0 });

    // The feed grows by two and still carries the first two: only the new ones are added.
    s.server.set(path('poll.xml'), { body: rssOf(4), etag: '"p2"' });
    s.h.clock.now += 15 * MINUTE;
    await s.runner.runDue();
    expect(await s.titles(source.source_id)).toEqual(['Story 1', 'Story 2', 'Story 3', 'Story 4']);
    expect(await s.status(source.source_id)).toMatchObject({ items: 4, last_new: 2 });
  });

  it('sends Last-Modified back and takes a 304 as nothing new', async () => {
    const stamp = 'Mon, 03 Mar 2025 09:00:00 GMT';
    s.server.set(path('lm.xml'), { body: rssOf(1), lastModified: stamp });
    const source = await s.follow(s.server.url(path('lm.xml')));
    await s.runner.runDue();
    s.h.clock.now += 15 * MINUTE;
    await s.runner.runDue();
    const last = s.server.requests.filter((r) => r.path === path('lm.xml')).at(-1)!;
    expect(last.headers['if-modified-since']).toBe(stamp);
    expect(await s.status(source.source_id)).toMatchObject({ state: 'ok', items: 1, last_new: 0 });
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
      'cut-off',
      {
        // Half a feed in a body that ends when its connection closes, then silence: what
        // arrived before the time limit is not the feed.
        handle: (_req: unknown, res: ServerResponse) => {
          res.socket?.write(
            'HTTP/1.1 200 OK\r\ncontent-type: application/rss+xml\r\nconnection: close\r\n\r\n' +
              rssOf(40).slice(0, 3000),
          );
        },
      },
      'timed out after 1 s',
    ],
    [
      'huge',
      {
        handle: (_req: unknown, res: ServerResponse) => {
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
    s.server.set(path(`${name}.xml`), { body: rssOf(1) });
    const source = await s.follow(s.server.url(path(`${name}.xml`)));
    await s.runner.runDue();
    s.server.set(path(`${name}.xml`), route);
    s.h.clock.now += 60 * MINUTE;
    await s.runner.runDue();
    expect(await s.status(source.source_id)).toMatchObject({
      state: 'error',
      items: 1,
      last_error: message,
      next_run_at: iso(s.h.clock.now + MINUTE),
    });
    // The second failure waits twice as long; a good answer clears the error.
    s.h.clock.now += MINUTE;
    await s.runner.runDue();
    expect(await s.status(source.source_id)).toMatchObject({
      next_run_at: iso(s.h.clock.now + 2 * MINUTE),
    });
    s.server.set(path(`${name}.xml`), { body: rssOf(2) });
    s.h.clock.now += 2 * MINUTE;
    await s.runner.runDue();
    expect(await s.status(source.source_id)).toMatchObject({
      state: 'ok',
      items: 2,
      last_new: 1,
      last_error: null,
    });
  });
});
