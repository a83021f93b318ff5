import { describe, expect, it } from 'vitest';
import {
  createFaultyFetch,
  errorResponse,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

/**
 * Mark all read through the worker: the mirror's rows read at once (optimistic), one request,
 * its answer naming exactly what it marked; a refusal puts every row back; the undo restores
 * exactly those documents in one request.
 */
const suite = setupWorkspaceSuite({ ingest: false });
const SOURCE = 'demo_research';
const BEFORE = 4_000_000_000; // Far in the future: every document of the feed.

async function following() {
  const net = createFaultyFetch();
  const ws = suite.workspace({ fetch: net.fetch });
  const tab = await ws.tab();
  const user = newUser();
  await tab.api.call('auth.signUp', user);
  await tab.api.call('sources.followMany', { keys: [SOURCE] });
  const window = () =>
    tab.api.call('feed.window', { board: 'home', tab: null, sort: 'latest', offset: 0, count: 50 });
  await window();
  await ws.workspace.idle();
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const serverRead = async (deeplink: string) =>
    ((await server.get(`/doc/read_Status/${deeplink}`)) as { status: string }).status;
  return { net, ws, tab, window, serverRead };
}

const readFlags = (rows: Array<{ read: boolean }>) => rows.map((r) => r.read);

describe('doc.markAllRead', () => {
  it('shows every row read at once offline, sends one request on return, and the undo restores them', async () => {
    const { net, ws, tab, window, serverRead } = await following();
    const before = await window();
    expect(before.rows.length).toBeGreaterThan(1);
    expect(readFlags(before.rows).every((r) => !r)).toBe(true);
    // One document read beforehand: not part of what the mark (or its undo) touches.
    const [kept, ...rest] = before.rows.map((r) => r.deeplink);
    await tab.api.call('doc.setRead', { deeplinks: [kept], status: 'read' });
    await ws.workspace.idle();

    net.state.offline = true;
    const answer = await tab.api.call('doc.markAllRead', {
      board: 'home',
      before: BEFORE,
      mark_id: 'mark-1',
    });
    // Offline: the answer is what the mirror marked, for an undo meanwhile.
    expect([...answer.deeplinks].sort()).toEqual([...rest].sort());
    expect(readFlags((await window()).rows).every(Boolean)).toBe(true);
    expect(await serverRead(rest[0])).toBe('unread');

    net.state.offline = false;
    const sentBefore = net.state.sent.length;
    await tab.api.call('tab.online', { online: true });
    await ws.workspace.idle();
    expect(net.state.sent.slice(sentBefore).filter((s) => s.includes('read-all'))).toEqual([
      'POST /api/boards/home/read-all',
    ]);
    expect(await serverRead(rest[0])).toBe('read');
    expect(await serverRead(rest[rest.length - 1])).toBe('read');

    await tab.api.call('doc.markUnread', { deeplinks: answer.deeplinks });
    await ws.workspace.idle();
    const after = await window();
    expect(after.rows.find((r) => r.deeplink === kept)?.read).toBe(true);
    expect(after.rows.filter((r) => r.deeplink !== kept).every((r) => !r.read)).toBe(true);
    expect(await serverRead(rest[0])).toBe('unread');
    expect(await serverRead(kept)).toBe('read');
  });

  it("puts every row back when the server refuses, and answers with the server's list online", async () => {
    const { net, ws, tab, window, serverRead } = await following();
    const rows = (await window()).rows;
    net.state.rule = (url, init) =>
      init.method === 'POST' && url.endsWith('/read-all')
        ? errorResponse(422, 'unprocessable', 'no')
        : null;
    await expect(
      tab.api.call('doc.markAllRead', { board: 'home', before: BEFORE }),
    ).rejects.toThrow();
    await ws.workspace.idle();
    expect(readFlags((await window()).rows).every((r) => !r)).toBe(true);
    expect(await serverRead(rows[0].deeplink)).toBe('unread');

    net.state.rule = null;
    const answer = await tab.api.call('doc.markAllRead', { board: 'home', before: BEFORE });
    expect([...answer.deeplinks].sort()).toEqual(rows.map((r) => r.deeplink).sort());
    expect(answer.has_more).toBe(false);
    expect(readFlags((await window()).rows).every(Boolean)).toBe(true);
  });
});
