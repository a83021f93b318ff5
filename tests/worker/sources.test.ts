import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, setupWorkspaceSuite } from './support';

/** Following sources from the worker: by address (a local fixture feed), by key, priority. */
// Put back after the file: the worker project's files share their process (vitest.config.ts).
const allowPrivate = process.env.FETCH_ALLOW_PRIVATE;
process.env.FETCH_ALLOW_PRIVATE = '1';
afterAll(() => {
  if (allowPrivate === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
  else process.env.FETCH_ALLOW_PRIVATE = allowPrivate;
});
const suite = setupWorkspaceSuite({ ingest: false });

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
  <title>Harbour Street Journal</title>
  <link>http://harbour.example/</link>
  <item><guid>hsj-1</guid><title>Port volumes climb for a third month</title>
    <link>http://harbour.example/1</link><pubDate>Mon, 02 Mar 2026 09:00:00 GMT</pubDate>
    <description>&lt;p&gt;Container volumes rose again.&lt;/p&gt;</description></item>
  <item><guid>hsj-2</guid><title>Dock workers agree a new contract</title>
    <link>http://harbour.example/2</link><pubDate>Tue, 03 Mar 2026 09:00:00 GMT</pubDate>
    <description>The agreement runs three years.</description></item>
</channel></rss>`;

let feeds: Server;
let feedUrl = '';
beforeAll(async () => {
  feeds = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      res.end(RSS);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/feed.xml`;
});
afterAll(() => new Promise<void>((resolve) => feeds.close(() => resolve())));

describe('sources from the worker', () => {
  it('follows a feed by its address, lists it with its status and shows its items', async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());

    const source = await tab.api.call('sources.followUrl', { url: feedUrl });
    expect(source).toMatchObject({
      label: 'Harbour Street Journal',
      kind: 'rss',
      link_to_crawl: feedUrl,
      followed: true,
      public: false,
    });
    expect(source.key).toMatch(/^rss_/);
    const listed = await tab.api.call('sources.list', {});
    expect(listed.map((s) => s.key)).toEqual([source.key]);
    expect(listed[0].status.state).toBe('pending');

    // Ingestion reads it; the change feed brings the new entries to the mirrored home feed.
    const empty = await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 10,
    });
    expect(empty).toMatchObject({ rows: [], total: 0 });
    expect(await suite.env.server.ingest.runDue()).toBeGreaterThanOrEqual(1);
    await tab.api.call('sync.pull', {});
    await ws.workspace.idle();
    const window = await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 10,
    });
    expect(window.rows.map((r) => r.title)).toEqual([
      'Dock workers agree a new contract',
      'Port volumes climb for a third month',
    ]);
    expect(window.rows.map((r) => r.source)).toEqual([source.key, source.key]);
  });

  it('names the problem with an address it cannot follow', async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    await expect(tab.api.call('sources.followUrl', { url: 'not a url at all' })).rejects.toThrow(
      'url is not a valid address',
    );
    await expect(
      tab.api.call('sources.followUrl', { url: 'ftp://files.example/feed.xml' }),
    ).rejects.toThrow('url must be an http or https address, not ftp');
    expect(await tab.api.call('sources.list', {})).toEqual([]);
  });

  it('follows by key, sets priority at once and unfollows to the next source', async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    const catalogue = await tab.api.call('sources.catalogue', {});
    const offered = catalogue.results.flatMap((c) => c.sources.map((s) => s.key));
    expect(offered).toContain('demo_tech_ledger');
    const topics = await tab.api.call('sources.topics', {});
    const technology = topics.results.find((t) => t.topic === 'technology');
    expect(technology?.sources.map((s) => s.key)).toContain('demo_tech_ledger');

    const followed = await tab.api.call('sources.follow', { key: 'demo_tech_ledger' });
    expect(followed.message).toBe('Tech Ledger is successfully followed');
    await tab.api.call('sources.followMany', { keys: ['demo_health_review', 'demo_media_daily'] });
    const list = await tab.api.call('sources.list', {});
    expect(list.map((s) => s.key).sort()).toEqual([
      'demo_health_review',
      'demo_media_daily',
      'demo_tech_ledger',
    ]);
    expect(list.every((s) => s.status.state === 'ok' && s.status.items > 0)).toBe(true);

    const tech = list.find((s) => s.key === 'demo_tech_ledger')!;
    expect(
      await tab.api.call('sources.setPriority', { source_ids: [tech.source_id], priority: true }),
    ).toEqual({ updated: 1, message: 'Priority updated successfully.' });
    const after = await tab.api.call('sources.list', {});
    expect(after.find((s) => s.key === 'demo_tech_ledger')?.priority).toBe(true);

    const order = after.map((s) => s.key);
    const last = order[order.length - 1];
    const out = await tab.api.call('sources.unfollow', { key: last });
    // The last one goes: the next source is the one before it.
    expect(out.next).toBe(order[order.length - 2]);
    expect((await tab.api.call('sources.list', {})).map((s) => s.key)).toEqual(order.slice(0, -1));
  });
});
