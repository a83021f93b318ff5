import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDocs, changesOf, feedTitles, follow, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Harbour Economics Blog</title><link>/blog</link>
<item><title>Why yields rose</title><link>/blog/yields</link><guid>y1</guid></item>
</channel></rss>`;
const PAGE = `<!doctype html><html><head><title>Lakeside Research Notes</title></head><body>
<article><h1>Semiconductor cycle turns</h1>${'<p>Inventories have normalised across the supply chain and lead times are shortening again for most parts.</p>'.repeat(8)}</article>
</body></html>`;

/** Fixture feeds served from this machine (FETCH_ALLOW_PRIVATE=1 lets the probe read them). */
let server: Server;
let base: string;
let allowPrivate: string | undefined;
beforeAll(async () => {
  allowPrivate = process.env.FETCH_ALLOW_PRIVATE;
  process.env.FETCH_ALLOW_PRIVATE = '1';
  server = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS);
    } else if (req.url === '/notes') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else if (req.url === '/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (allowPrivate === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
  else process.env.FETCH_ALLOW_PRIVATE = allowPrivate;
  await new Promise((resolve) => server?.close(resolve));
});

describe.each(STORAGES)('following by address on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const followUrl = (token: string, url: string, path = '/connect/rss') =>
    h.call('POST', path, { token, body: { url } });

  it('answers 400 naming the problem with a malformed or unreadable address', async () => {
    const { token } = await newUser(h);
    const cases: Array<[string, string]> = [
      ['ftp://files.example.com/feed', 'url must be an http or https address, not ftp'],
      ['javascript:alert(1)', 'url must be an http or https address, not javascript'],
      ['http://', 'url is not a valid address'],
      ['https://user:secret@example.com/feed', 'url must not carry a user name or password'],
      [`${base}/missing.xml`, 'url could not be reached: the server answered 404 Not Found'],
      [`${base}/image.png`, 'url is not a feed or a web page'],
    ];
    for (const [url, message] of cases) {
      const res = await followUrl(token, url);
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toBe(message);
    }
    expect((await followUrl(token, '   ')).body.message).toBe('url: url must not be empty');
    expect((await h.call('GET', '/source/private', { token })).body.sources).toEqual([]);
  });

  it('follows a feed by address as a private source, fetched at once', async () => {
    const { token } = await newUser(h);
    const res = await followUrl(token, `${base}/feed.xml`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'rss',
      label: 'Harbour Economics Blog',
      link_to_crawl: `${base}/feed.xml`,
      category: 'rss_news',
      public: false,
      followed: true,
      status: { state: 'pending', next_run_at: '2025-03-03T10:00:00.000Z' },
    });
    expect(res.body.key).toBe(`rss_${res.body.source_id}`);
    const listed = async (path: string, field: string) =>
      (await h.call('GET', path, { token })).body[field].map(
        (s: { source_id: string }) => s.source_id,
      );
    expect(await listed('/source/private', 'sources')).toEqual([res.body.source_id]);
    expect(await listed('/source/rss', 'results')).toEqual([res.body.source_id]);
    const one = await h.call('GET', `/source/rss/${res.body.source_id}`, { token });
    expect(one.body.label).toBe('Harbour Economics Blog');
    expect((await changesOf(h, token)).map((c) => c.entity)).toEqual(['follow']);
    // The same address again: the same source, still followed.
    const again = await followUrl(token, `${base}/feed.xml`);
    expect(again.body.source_id).toBe(res.body.source_id);
  });

  it('follows a web page as a website through /connect/{app}/custom', async () => {
    const { token } = await newUser(h);
    const bad = await followUrl(token, `${base}/notes`, '/connect/slack/custom');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('app must be rss or website, not slack');
    const res = await followUrl(token, `${base}/notes`, '/connect/website/custom');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'website',
      label: 'Lakeside Research Notes',
      public: false,
    });
    expect(res.body.key).toBe(`web_${res.body.source_id}`);
  });

  it("never shows one user's private source or its documents to another", async () => {
    const owner = await newUser(h, 'Owner');
    const other = await newUser(h, 'Other');
    const mine = (await followUrl(owner.token, `${base}/feed.xml`)).body;
    await addDocs(h, mine.source_id, [news('p1', 'Why yields rose', 'Term premium.', 1)]);
    const [card] = (await h.call('GET', '/boards/home/v2', { token: owner.token })).body.results
      .documents;
    expect(card.title).toBe('Why yields rose');

    const keysOf = (sources: Array<{ source_id: string }>) => sources.map((s) => s.source_id);
    const categories = (await h.call('GET', '/categories', { token: other.token })).body.results;
    expect(
      categories.flatMap((c: { sources: Array<{ source_id: string }> }) => keysOf(c.sources)),
    ).not.toContain(mine.source_id);
    expect((await h.call('GET', '/source/private', { token: other.token })).body.sources).toEqual(
      [],
    );
    expect(
      (await h.call('GET', '/source/public', { token: other.token })).body.sources.map(
        (s: { key: string }) => s.key,
      ),
    ).not.toContain(mine.key);
    expect(
      (await h.call('GET', `/source/rss/${mine.source_id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await h.call('POST', '/connect/public', { token: other.token, body: { key: mine.key } }))
        .status,
    ).toBe(404);
    expect(
      (await h.call('GET', `/doc/${mine.key}?deeplink=${card.deeplink}`, { token: other.token }))
        .status,
    ).toBe(404);
    expect(
      (await h.call('GET', `/doc/${mine.key}?deeplink=${card.deeplink}`, { token: owner.token }))
        .status,
    ).toBe(200);
    const preview = await h.call('POST', '/boards/new/preview', {
      token: other.token,
      body: {
        definition: {
          sources: [mine.source_id],
          keywords: { include: [], exclude: [] },
          filters: { filter: [], exclusion_filter: [] },
          date_range: null,
          ai: null,
        },
      },
    });
    expect(preview.status).toBe(400);
    expect(preview.body.message).toBe(`definition.sources: no such source: ${mine.source_id}`);

    // The same address followed by the other user is a row of their own.
    const theirs = (await followUrl(other.token, `${base}/feed.xml`)).body;
    expect(theirs.source_id).not.toBe(mine.source_id);
    expect(await feedTitles(h, other.token)).toEqual([]);
    await follow(h, other.token, 'demo_markets_wire');
  });
});
