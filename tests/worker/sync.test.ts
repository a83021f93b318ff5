import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import { DEMO, mirrorOf, serverView, setupWorkspaceSuite } from './support';

const DAY_MS = 24 * 3600 * 1000;
// The server keeps only the 2 newest changes per user once its maintenance runs.
const suite = setupWorkspaceSuite({ changeRetention: { maxPerUser: 2, maxAgeMs: 30 * DAY_MS } });
const { workspace } = suite;

const wholeStore = (store: string) => (e: WorkerEvent) =>
  e.type === 'changed' && e.store === store && e.keys === null;

describe('change-feed reset (the server compacted past the cursor)', () => {
  it('a stale cursor gets the reset signal and the worker refetches what it mirrors', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    const first = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(first.unread).toBe(20);
    expect(await a.api.call('preferences.get', {})).toEqual({
      nav_state: null,
      overlay_widths: {},
    });
    // The demo workspace's seed wrote changes of its own (follows, feeds): the cursor starts there.
    const { applied, cursor: base } = await a.api.call('sync.pull', {});
    expect(applied).toBe(0);
    await ws.workspace.idle();

    // Another device makes 5 changes; the server keeps the last 2.
    const other = await serverView(suite.env.baseUrl, DEMO.email, DEMO.password);
    await other.send('POST', '/notifications/read', {
      ids: first.rows.slice(0, 3).map((n) => n.id),
    });
    await other.send('PUT', '/user/preferences', { nav_state: 'closed' });
    await other.send('PUT', '/user/preferences', { overlay_widths: { preview: 60 } });
    await suite.env.server.runMaintenance();
    expect(await other.get('/sync/changes?after=0')).toEqual({
      changes: [],
      cursor: base + 5,
      has_more: false,
      reset: true,
    });

    const since = a.events.length;
    expect(await a.api.call('sync.pull', {})).toEqual({ applied: 0, cursor: base + 5 });
    // Every store the worker mirrors is announced whole: the tabs read again.
    await a.waitFor(wholeStore('account'), { since });
    await a.waitFor(wholeStore('notifications'), { since });
    // Preferences and flags, cached forever, are fetched again at once.
    expect(await a.waitFor((e) => e.type === 'preferences', { since })).toEqual({
      type: 'preferences',
      preferences: { nav_state: 'closed', overlay_widths: { preview: 60 } },
    });
    expect(await a.waitFor((e) => e.type === 'flags', { since })).toMatchObject({
      flags: { ask_needl_copilot: true },
    });
    // The list was cleared; reading it again fetches it, with the marks the feed no longer had.
    const db = await mirrorOf(ws);
    expect(await db.count('notifications')).toBe(0);
    db.close();
    const after = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(after).toMatchObject({ total: 25, unread: 17 });
    expect(after.rows.slice(0, 4).map((n) => n.read)).toEqual([true, true, true, false]);

    // The feed goes on from the new cursor.
    await other.send('PUT', '/user/preferences', { nav_state: 'peek' });
    expect(await a.api.call('sync.pull', {})).toEqual({ applied: 1, cursor: base + 6 });
    expect(await a.api.call('preferences.get', {})).toEqual({
      nav_state: 'peek',
      overlay_widths: { preview: 60 },
    });
  });
});
