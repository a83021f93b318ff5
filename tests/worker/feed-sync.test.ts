import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION, type BoardDocs } from '../../contract/boards';
import type { WorkerEvent } from '../../contract/worker-api';
import type { HeadlessTab } from '../../worker/headless';
import { newsItem, serverDocs, type ServerDocs } from './feed-support';
import { newUser, serverView, setupWorkspaceSuite } from './support';

/** A feed's mirror kept current: new entries after its sequence, removed ones, new versions. */
const suite = setupWorkspaceSuite({ ingest: false });
let docs: ServerDocs;
beforeAll(async () => {
  docs = await serverDocs(suite.env);
});
afterAll(() => docs?.close());

const feedChanged = (e: WorkerEvent) => e.type === 'changed' && e.store === 'feed_entries';
const top = (tab: HeadlessTab, board = 'home', count = 5) =>
  tab.api.call('feed.window', { board, tab: null, sort: 'latest', offset: 0, count });

async function signedUp(keys: string[]) {
  const user = newUser();
  const ws = suite.workspace();
  const tab = await ws.tab();
  await tab.api.call('auth.signUp', user);
  await tab.api.call('sources.followMany', { keys });
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const page = async (board: string, query = 'num_docs=5') =>
    ((await server.get(`/boards/${board}/v2?${query}`)) as BoardDocs).results;
  return { ws, tab, page, server };
}

describe('following a feed after its sequence number', () => {
  it('brings new entries on refresh and on the change feed, and drops removed ones', async () => {
    const { ws, tab, page } = await signedUp(['demo_markets_wire', 'demo_research']);
    await top(tab);
    await ws.workspace.idle();
    const before = await top(tab);
    expect(before.complete).toBe(true);
    const count = (await page('home')).count;
    expect(before.total).toBe(count);

    // Ingestion writes three new items: 'feed.refresh' pulls them after the mirror's sequence.
    const now = Math.floor(Date.now() / 1000);
    await docs.insert('demo_markets_wire', [
      newsItem('sync-a', 'Harbour Lane Capital raises its outlook', now - 30),
      newsItem('sync-b', 'Coastal Freight posts record volumes', now - 20),
      newsItem('sync-c', 'Meridian Bank opens a Pune branch', now - 10),
    ]);
    expect(await tab.api.call('feed.refresh', { board: 'home' })).toEqual({ total: count + 3 });
    const fresh = await top(tab, 'home', 3);
    expect(fresh.rows.map((r) => r.title)).toEqual([
      'Meridian Bank opens a Pune branch',
      'Coastal Freight posts record volumes',
      'Harbour Lane Capital raises its outlook',
    ]);
    expect(fresh.total).toBe(count + 3);

    // One more, heard through the change feed's 'feed' entity alone.
    await docs.insert('demo_markets_wire', [
      newsItem('sync-d', 'Saltmarsh Energy signs a supply deal', now - 5),
    ]);
    const since = tab.events.length;
    await tab.api.call('sync.pull', {});
    await tab.waitFor(feedChanged, { since });
    await ws.workspace.idle();
    expect((await top(tab, 'home', 1)).rows[0].title).toBe('Saltmarsh Energy signs a supply deal');

    // Unfollowing removes the source's entries: the change feed says so, the mirror drops them.
    const research = await tab.api.call('feed.window', {
      board: 'home',
      tab: 'research',
      sort: 'latest',
      offset: 0,
      count: 5,
    });
    expect(research.total).toBeGreaterThan(0);
    const unfollowed = await tab.api.call('sources.unfollow', { key: 'demo_research' });
    expect(unfollowed).toEqual({
      message: 'Street Research (demo) is successfully unfollowed',
      next: 'demo_markets_wire',
    });
    await tab.api.call('sync.pull', {});
    await ws.workspace.idle();
    const gone = await tab.api.call('feed.window', {
      board: 'home',
      tab: 'research',
      sort: 'latest',
      offset: 0,
      count: 5,
    });
    expect(gone).toMatchObject({ rows: [], total: 0, complete: true });
    const all = await top(tab);
    expect(all.total).toBe((await page('home')).count);
    expect(all.rows.every((r) => r.source === 'demo_markets_wire')).toBe(true);
  });

  it('starts a feed over when its definition gets a new version', async () => {
    const { ws, tab, page } = await signedUp(['demo_markets_wire', 'demo_us_filings']);
    const draft = (keyword: string) => ({
      board_name: `Watch ${keyword}`,
      description: '',
      kind: 'custom' as const,
      definition: {
        ...EMPTY_DEFINITION,
        keywords: { include: [{ keyword, valid: true }], exclude: [] },
      },
    });
    const board = await tab.api.call('boards.create', draft('buyback'));
    const first = await top(tab, board.board_id, 50);
    await ws.workspace.idle();
    const server = await page(board.board_id, 'num_docs=50');
    expect(first.rows.map((r) => r.doc_id)).toEqual(server.documents.map((d) => d.doc_id));
    expect(first.rows.every((r) => /buyback/i.test(`${r.title} ${r.plain_text}`))).toBe(true);

    const since = tab.events.length;
    const edited = await tab.api.call('boards.update', {
      id: board.board_id,
      draft: draft('dividend'),
    });
    expect(edited.version).toBeGreaterThan(board.version);
    // The 'board' change carries the new version: the feed's mirror is cleared and refetched.
    await tab.waitFor((e) => feedChanged(e) && e.type === 'changed' && e.keys === null, { since });
    await ws.workspace.idle();
    const now = await top(tab, board.board_id, 50);
    const expected = await page(board.board_id, 'num_docs=50');
    expect(expected.version).toBe(edited.version);
    expect(now.rows.map((r) => r.doc_id)).toEqual(expected.documents.map((d) => d.doc_id));
    expect(now).toMatchObject({ total: expected.count, complete: true });
    expect(now.rows.some((r) => /buyback/i.test(r.title) && !/dividend/i.test(r.plain_text))).toBe(
      false,
    );
  });

  it('starts over when a page of the feed comes with another version (edited elsewhere)', async () => {
    const { ws, tab, page, server } = await signedUp(['demo_markets_wire', 'demo_us_filings']);
    const board = await tab.api.call('boards.create', {
      board_name: 'Results',
      description: '',
      kind: 'custom',
      definition: {
        ...EMPTY_DEFINITION,
        keywords: { include: [{ keyword: 'results', valid: true }], exclude: [] },
      },
    });
    await top(tab, board.board_id, 50);
    await ws.workspace.idle();

    // Another device edits it; this worker has not pulled the change feed, only the feed.
    await server.send('PUT', `/boards/${board.board_id}`, {
      board_name: 'Results',
      description: '',
      kind: 'custom',
      definition: {
        ...EMPTY_DEFINITION,
        keywords: { include: [{ keyword: 'buyback', valid: true }], exclude: [] },
      },
    });
    await tab.api.call('feed.refresh', { board: board.board_id });
    await ws.workspace.idle();
    const expected = await page(board.board_id, 'num_docs=50');
    const now = await top(tab, board.board_id, 50);
    expect(now.rows.map((r) => r.doc_id)).toEqual(expected.documents.map((d) => d.doc_id));
    expect(now).toMatchObject({ total: expected.count, complete: true });
  });

  it("reads one source's view of the home feed (the server's pages, filtered by source)", async () => {
    const { ws, tab } = await signedUp(['demo_markets_wire', 'demo_us_filings']);
    const view = { board: 'home', tab: null, sort: 'latest' as const, source: 'demo_us_filings' };
    await tab.api.call('feed.window', { ...view, offset: 0, count: 10 });
    await ws.workspace.idle();
    const items = (await tab.api.call('sources.list', {})).find((s) => s.key === 'demo_us_filings')!
      .status.items;
    const all = await tab.api.call('feed.window', { ...view, offset: 0, count: 500 });
    expect(all.total).toBe(items);
    expect(all.rows).toHaveLength(items);
    expect(all.rows.every((r) => r.source === 'demo_us_filings')).toBe(true);
    const tabs = await tab.api.call('feed.tabs', { board: 'home', source: 'demo_us_filings' });
    expect(tabs.map((t) => [t.key, t.data])).toEqual([['us_capital_markets', items]]);
  });
});
