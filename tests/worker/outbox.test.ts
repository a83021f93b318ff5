import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createBroadcastHub, createManualClock, createMemoryLocks } from '../../worker/testing';
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
const isMarkRead = (url: string, method: string) =>
  method === 'POST' && url.endsWith('/notifications/read');

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

  it('sends the analytics report once per session, and each analytics event', async () => {
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

    // An event (the attach click, 001 §9) goes every time it happens, in the same session.
    const event = {
      ...report,
      mp_info: { ...report.mp_info, event_name: 'askneedl_upload_clicked' },
    };
    await a.api.call('analytics.event', event);
    await a.api.call('analytics.event', event);
    await ws.workspace.idle();
    expect(net.state.sent.filter((s) => s === 'POST /api/needl-analytics/report')).toHaveLength(3);
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

describe('outbox and a server asking for later (429)', () => {
  it('keeps a change refused with 429, says so once, and sends it when Retry-After says', async () => {
    // A manual clock: nothing is sent again until the test moves time on.
    const clock = createManualClock();
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch, clock });
    const a = await ws.tab('tab', { visible: false });
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();

    let refusals = 0;
    net.state.rule = (url, init) => {
      if (!isPreferencesPut(url, init.method) || refusals >= 2) return null;
      refusals += 1;
      return new Response(
        JSON.stringify({
          error: 'rate_limited',
          message: 'too many changes; try again in 30 seconds',
        }),
        { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '30' } },
      );
    };
    const since = a.events.length;
    // Kept, not rolled back: the caller has the optimistic answer.
    expect(await a.api.call('preferences.update', { nav_state: 'peek' })).toEqual({
      nav_state: 'peek',
      overlay_widths: {},
    });
    expect(await a.waitFor((e) => e.type === 'toast', { since })).toEqual({
      type: 'toast',
      kind: 'blank',
      message: 'Too many changes at once: yours is saved and will be sent again in 30 seconds.',
    });
    expect(await a.api.call('outbox.list', {})).toEqual([
      expect.objectContaining({
        op: 'preferences.update',
        attempts: 1,
        last_error: 'too many changes; try again in 30 seconds',
      }),
    ]);

    // Not before the server said: at 29 s nothing more was sent.
    await clock.advance(29_000);
    expect(refusals).toBe(1);
    expect((await preferenceChanges(user)).changes).toEqual([]);
    // At 30 s it goes, is refused again (no second toast), and waits another 30 s.
    await clock.advance(1_000);
    await expect.poll(() => refusals).toBe(2);
    await expect.poll(async () => (await a.api.call('outbox.list', {}))[0]?.attempts).toBe(2);
    await clock.advance(30_000);
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 0, { since });
    expect((await preferenceChanges(user)).preferences).toEqual({
      nav_state: 'peek',
      overlay_widths: {},
    });
    expect(a.events.slice(since).filter((e) => e.type === 'toast')).toHaveLength(1);
  });
});

describe('outbox entries are independent', () => {
  it.each([
    ['answers 500 for it', () => errorResponse(500, 'internal', 'The server failed')],
    ['drops it on the network', () => 'offline' as const],
  ])('an entry whose server %s does not hold back an independent one', async (_case, failure) => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();

    net.state.rule = (url, init) => (isMarkRead(url, init.method) ? failure() : null);
    const marked = a.api.call('notifications.markRead', { ids: ['n-1'] });
    // Sent while the mark is still failing (retrying, then backing off): the server's answer.
    expect(await a.api.call('preferences.update', { nav_state: 'peek' })).toEqual({
      nav_state: 'peek',
      overlay_widths: {},
    });
    expect(await a.api.call('outbox.list', {})).toEqual([
      expect.objectContaining({ op: 'notifications.markRead', input: { ids: ['n-1'] } }),
    ]);
    expect((await preferenceChanges(user)).preferences).toEqual({
      nav_state: 'peek',
      overlay_widths: {},
    });
    // The mark waits for its backoff; its caller has the optimistic answer.
    expect(await marked).toBeUndefined();
    const [entry, ...rest] = await a.api.call('outbox.list', {});
    expect(rest).toEqual([]);
    expect(entry.op).toBe('notifications.markRead');
    expect(entry.last_error).toMatch(/The server failed|did not reach the server/);
  });

  it('keeps entries of the same kind in order while the first backs off', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();

    net.state.offline = true;
    await a.api.call('preferences.update', { nav_state: 'peek' });
    net.state.offline = false;
    // The second update waits behind the first (its backoff), answered from the mirror.
    expect(await a.api.call('preferences.update', { overlay_widths: { preview: 40 } })).toEqual({
      nav_state: 'peek',
      overlay_widths: { preview: 40 },
    });
    expect((await a.api.call('outbox.list', {})).map((e) => e.input)).toEqual([
      { nav_state: 'peek' },
      { overlay_widths: { preview: 40 } },
    ]);
    expect(await a.api.call('outbox.drain', {})).toEqual({ sent: 2, pending: 0 });
    const { changes, preferences } = await preferenceChanges(user);
    expect(preferences).toEqual({ nav_state: 'peek', overlay_widths: { preview: 40 } });
    expect(changes.map((c) => c.data)).toEqual([
      { nav_state: 'peek' },
      { overlay_widths: { preview: 40 } },
    ]);
  });

  it("drains at once when a tab says it is online (no 'online' event in a SharedWorker)", async () => {
    // A manual clock: the entry's 5 s backoff never ends by itself here.
    const clock = createManualClock();
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch, clock });
    const a = await ws.tab('tab', { visible: false });
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();

    net.state.offline = true;
    const answer = a.api.call('preferences.update', { nav_state: 'closed' });
    // The client's two retries, 300 ms apart, then the entry backs off.
    await clock.advance(600);
    expect(await answer).toEqual({ nav_state: 'closed', overlay_widths: {} });
    expect(await a.api.call('outbox.list', {})).toEqual([
      expect.objectContaining({ op: 'preferences.update', attempts: 1 }),
    ]);

    net.state.offline = false;
    const since = a.events.length;
    await a.api.call('tab.online', { online: true });
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 0, { since });
    expect((await preferenceChanges(user)).preferences).toEqual({
      nav_state: 'closed',
      overlay_widths: {},
    });
  });
});
