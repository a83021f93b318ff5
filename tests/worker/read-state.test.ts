import { describe, expect, it } from 'vitest';
import type { ReadList } from '../../contract/documents';
import type { WorkerEvent } from '../../contract/worker-api';
import type { HeadlessTab } from '../../worker/headless';
import {
  createFaultyFetch,
  createGate,
  errorResponse,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

/** Read and unread: optimistic through the outbox, the same in every tab, kept by the feed. */
const suite = setupWorkspaceSuite({ ingest: false });

const rowsOf = async (tab: HeadlessTab) =>
  (
    await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 4,
    })
  ).rows;
const readChanged = (deeplink: string) => (e: WorkerEvent) =>
  e.type === 'changed' && e.store === 'read_status' && (e.keys?.includes(deeplink) ?? false);
const feedRowChanged = (deeplink: string) => (e: WorkerEvent) =>
  e.type === 'changed' &&
  e.store === 'feed_entries' &&
  (e.keys?.some((k) => k.endsWith(`|${deeplink}`)) ?? false);

async function twoTabs() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  await a.api.call('sources.follow', { key: 'demo_markets_wire' });
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const [rowsA, rowsB] = [await rowsOf(a), await rowsOf(b)];
  expect(rowsB.map((r) => r.doc_id)).toEqual(rowsA.map((r) => r.doc_id));
  expect(rowsA.map((r) => r.read)).toEqual([false, false, false, false]);
  return { user, ws, a, b, server, faulty, docs: rowsA.map((r) => r.doc_id) };
}

describe('read state', () => {
  it('marks read at once in every tab, before the server answers, and keeps it', async () => {
    const { ws, a, b, server, faulty, docs } = await twoTabs();
    const gate = createGate();
    faulty.state.rule = (url, init) =>
      init.method === 'PUT' && url.includes('/doc/read_status') ? { hold: gate.opened } : null;

    const since = b.events.length;
    const marked = a.api.call('doc.setRead', { deeplinks: [docs[0]], status: 'read' });
    // Tab B hears of the read state and of the feed row showing it, while the answer is held.
    await b.waitFor(readChanged(docs[0]), { since });
    await b.waitFor(feedRowChanged(docs[0]), { since });
    expect((await rowsOf(b)).map((r) => r.read)).toEqual([true, false, false, false]);
    expect(await b.api.call('doc.readState', { deeplinks: [docs[0], docs[1]] })).toEqual({
      [docs[0]]: true,
      [docs[1]]: false,
    });

    // The whole document carries the same state.
    const doc = await b.api.call('doc.get', { source: 'demo_markets_wire', deeplink: docs[0] });
    expect(doc).toMatchObject({ deeplink: docs[0], source: 'demo_markets_wire', read: true });
    expect(doc.content).toContain('<p>');

    gate.open();
    await marked;
    await ws.workspace.idle();
    expect(faulty.state.held).toBe(1);
    expect(((await server.get('/doc/read_status')) as ReadList).deeplinks).toEqual([docs[0]]);

    // Unread again: the row goes back in both tabs, and on the server.
    faulty.state.rule = null;
    await b.api.call('doc.setRead', { deeplinks: [docs[0]], status: 'unread' });
    expect((await rowsOf(a)).map((r) => r.read)).toEqual([false, false, false, false]);
    await ws.workspace.idle();
    expect(((await server.get('/doc/read_status')) as ReadList).deeplinks).toEqual([]);
  });

  it('rolls the mark back in every tab when the server refuses it', async () => {
    const { ws, a, b, faulty, docs } = await twoTabs();
    faulty.state.rule = (url, init) =>
      init.method === 'PUT' && url.includes('/doc/read_status')
        ? errorResponse(400, 'bad_request', 'deeplinks[0]: no such document')
        : null;
    const since = b.events.length;
    await expect(
      a.api.call('doc.setRead', { deeplinks: [docs[1]], status: 'read' }),
    ).rejects.toThrow('deeplinks[0]: no such document');
    // Shown read at once, then put back: tab B heard both, and the toast.
    const first = await b.waitFor(readChanged(docs[1]), { since });
    await b.waitFor(readChanged(docs[1]), { since: b.events.indexOf(first) + 1 });
    await b.waitFor(
      (e) =>
        e.type === 'toast' && e.kind === 'error' && e.message === 'deeplinks[0]: no such document',
      { since },
    );
    expect((await rowsOf(b)).map((r) => r.read)).toEqual([false, false, false, false]);
    await ws.workspace.idle();
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });

  it('takes marks made elsewhere: the read list on first use, the change feed after', async () => {
    const { user, server, docs } = await twoTabs();
    await server.send('PUT', '/doc/read_status', { deeplinks: [docs[2], docs[3]], status: 'read' });

    // Another device of the same user: its first read pulls the list.
    const other = suite.workspace();
    const c = await other.tab();
    await c.api.call('auth.signIn', { email: user.email, password: user.password });
    expect((await rowsOf(c)).map((r) => r.read)).toEqual([false, false, true, true]);

    await server.send('PUT', '/doc/read_status', { deeplinks: [docs[3]], status: 'unread' });
    await server.send('PUT', '/doc/read_status', { deeplinks: [docs[0]], status: 'read' });
    const since = c.events.length;
    await c.api.call('sync.pull', {});
    await c.waitFor(feedRowChanged(docs[0]), { since });
    expect((await rowsOf(c)).map((r) => r.read)).toEqual([true, false, true, false]);
  });
});
