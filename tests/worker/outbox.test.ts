import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createBroadcastHub, createMemoryLocks } from '../../worker/testing';
import {
  createFaultyFetch,
  createGate,
  errorResponse,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

const suite = setupWorkspaceSuite();
const { workspace } = suite;

const isPreferencesPut = (url: string, method: string) =>
  method === 'PUT' && url.endsWith('/user/preferences');

/** The server's preference changes for `user`, seen by another client of the account. */
async function preferenceChanges(user: { email: string; password: string }) {
  const view = await serverView(suite.env.baseUrl, user.email, user.password);
  return {
    changes: (await view.changes()).filter((c) => c.entity === 'preferences'),
    preferences: await view.get('/user/preferences'),
  };
}

describe('outbox', () => {
  it('keeps a change made offline, shows it at once, and a new worker sends it exactly once', async () => {
    const indexedDB = new IDBFactory();
    const net = createFaultyFetch();
    const user = newUser();
    const first = workspace({ indexedDB, fetch: net.fetch });
    const a = await first.tab('tab-a');
    const b = await first.tab('tab-b');
    await a.api.call('auth.signUp', user);
    await first.workspace.idle();

    net.state.offline = true;
    const answer = await a.api.call('preferences.update', { nav_state: 'peek' });
    expect(answer.nav_state).toBe('peek');
    expect(await b.api.call('preferences.get', {})).toMatchObject({ nav_state: 'peek' });
    await b.waitFor((e) => e.type === 'preferences' && e.preferences.nav_state === 'peek');
    await b.waitFor((e) => e.type === 'online' && !e.online);
    const [entry, ...rest] = await a.api.call('outbox.list', {});
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      op: 'preferences.update',
      input: { nav_state: 'peek' },
      last_error: expect.stringContaining('did not reach the server'),
    });
    await first.close();
    expect((await preferenceChanges(user)).changes).toEqual([]);

    const second = workspace({ indexedDB });
    const c = await second.tab();
    await second.workspace.idle();
    expect(await c.api.call('outbox.list', {})).toEqual([]);
    const { changes, preferences } = await preferenceChanges(user);
    expect(preferences).toMatchObject({ nav_state: 'peek' });
    expect(changes).toHaveLength(1);
  });

  it('applies a change once when the server got it but the answer was lost', async () => {
    const indexedDB = new IDBFactory();
    const net = createFaultyFetch();
    const user = newUser();
    const first = workspace({ indexedDB, fetch: net.fetch });
    const a = await first.tab();
    await a.api.call('auth.signUp', user);
    await first.workspace.idle();

    net.state.rule = (url, init) => (isPreferencesPut(url, init.method) ? 'lose-response' : null);
    await a.api.call('preferences.update', {
      nav_state: 'opened',
      overlay_widths: { preview: 70 },
    });
    // Every attempt (the first and 2 retries) reached the server with the same key.
    expect(net.state.sent.filter((s) => s === 'PUT /api/user/preferences')).toHaveLength(3);
    expect(await a.api.call('outbox.list', {})).toHaveLength(1);
    await first.close();

    const second = workspace({ indexedDB });
    await second.tab();
    await second.workspace.idle();
    const { changes, preferences } = await preferenceChanges(user);
    expect(preferences).toEqual({ nav_state: 'opened', overlay_widths: { preview: 70 } });
    expect(changes).toHaveLength(1);
  });

  it('drains when the network comes back', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();

    net.state.offline = true;
    await a.api.call('preferences.update', { nav_state: 'closed' });
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 1);
    expect(await a.api.call('outbox.list', {})).toHaveLength(1);

    net.state.offline = false;
    const since = a.events.length;
    // Any answer from the server (here the route change's session check) means online again.
    await a.api.call('tab.route', { path: '/feeds/home' });
    await a.waitFor((e) => e.type === 'online' && e.online, { since });
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 0, { since });
    expect((await preferenceChanges(user)).preferences).toMatchObject({ nav_state: 'closed' });
  });

  it('rolls the mirror back and shows the server message when the server rejects a change', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signUp', newUser());
    expect(await a.api.call('preferences.get', {})).toMatchObject({ nav_state: null });

    net.state.rule = (url, init) =>
      isPreferencesPut(url, init.method)
        ? errorResponse(409, 'conflict', 'Preferences changed on another device')
        : null;
    await expect(a.api.call('preferences.update', { nav_state: 'peek' })).rejects.toMatchObject({
      status: 409,
      message: 'Preferences changed on another device',
    });
    for (const tab of [a, b]) {
      expect(await tab.waitFor((e) => e.type === 'toast')).toEqual({
        type: 'toast',
        kind: 'error',
        message: 'Preferences changed on another device',
      });
    }
    expect(await b.api.call('preferences.get', {})).toMatchObject({ nav_state: null });
    expect(await b.api.call('outbox.list', {})).toEqual([]);
    // The tab saw the optimistic value and then the rolled-back one.
    const seen = b.events.flatMap((e) =>
      e.type === 'preferences' ? [e.preferences.nav_state] : [],
    );
    expect(seen.slice(-2)).toEqual(['peek', null]);
  });

  it('sends the analytics report once per session', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    const report = {
      adblocker_installed: false,
      mp_info: { event_name: 'app_open', distinct_id: 'd1', email: 'x@example.com', name: 'X' },
    };
    await a.api.call('analytics.report', report);
    await a.api.call('analytics.report', report);
    await ws.workspace.idle();
    expect(net.state.sent.filter((s) => s === 'POST /api/needl-analytics/report')).toHaveLength(1);
  });

  it('sends a change made while another worker instance drains (dedicated-worker fallback)', async () => {
    const profile = {
      indexedDB: new IDBFactory(),
      locks: createMemoryLocks(),
      broadcastChannel: createBroadcastHub().channel,
    };
    const net = createFaultyFetch();
    const user = newUser();
    const one = workspace({ ...profile, fetch: net.fetch });
    const two = workspace(profile);
    const a = await one.tab('tab-a');
    const b = await two.tab('tab-b');
    await a.api.call('auth.signUp', user);
    await b.waitFor((e) => e.type === 'session');
    await one.workspace.idle();
    await two.workspace.idle();

    // The first worker is mid-drain (its send answered but not yet heard) ...
    const gate = createGate();
    net.state.rule = (url, init) =>
      isPreferencesPut(url, init.method) ? { hold: gate.opened } : null;
    const first = a.api.call('preferences.update', { nav_state: 'peek' });
    await expect.poll(() => net.state.held).toBe(1);
    // ... when the second worker stores a change: it answers at once, from the mirror.
    const answer = await b.api.call('preferences.update', { overlay_widths: { preview: 55 } });
    expect(answer).toMatchObject({ nav_state: 'peek', overlay_widths: { preview: 55 } });

    gate.open();
    await first;
    await one.workspace.idle();
    await two.workspace.idle();
    expect(await b.api.call('outbox.list', {})).toEqual([]);
    const { changes, preferences } = await preferenceChanges(user);
    expect(preferences).toEqual({ nav_state: 'peek', overlay_widths: { preview: 55 } });
    expect(changes).toHaveLength(2);
  });
});
