import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createBroadcastHub, createMemoryLocks } from '../../worker/testing';
import {
  createAccount,
  createFaultyFetch,
  createGate,
  DEMO,
  mirrorOf,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

const suite = setupWorkspaceSuite();
const { workspace } = suite;

const isNotifications = (url: string) => new URL(url).pathname.endsWith('/notifications');

describe("one account's data never reaches the next", () => {
  it("a read answered after sign-out does not show the last user's notifications to the next", async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    const demo = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(demo.rows).toHaveLength(20);
    await ws.workspace.idle();

    // The next read answers from the mirror; its revalidation is answered but not yet heard.
    const gate = createGate();
    net.state.rule = (url) => (isNotifications(url) ? { hold: gate.opened } : null);
    await a.api.call('notifications.window', { offset: 0, count: 20 });
    await expect.poll(() => net.state.held).toBe(1);

    await a.api.call('auth.signOut', {});
    gate.open();
    await ws.workspace.idle();
    net.state.rule = null;
    const db = await mirrorOf(ws);
    expect(await db.getAll('notifications')).toEqual([]);
    db.close();

    await a.api.call('auth.signUp', newUser());
    const page = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(page).toEqual({ offset: 0, rows: [], total: 0, unread: 0 });
  });

  it("a change-feed pull in flight at sign-out does not leave the last user's cursor", async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    const first = newUser();
    await a.api.call('auth.signUp', first);
    await ws.workspace.idle();
    // The first user's change sequence runs ahead of the next user's.
    const firstView = await serverView(suite.env.baseUrl, first.email, first.password);
    for (const width of [40, 45, 50, 55, 60]) {
      await firstView.send('PUT', '/user/preferences', { overlay_widths: { preview: width } });
    }

    const gate = createGate();
    net.state.rule = (url) => (url.includes('/sync/changes') ? { hold: gate.opened } : null);
    const pulled = a.api.call('sync.pull', {}).catch(() => null);
    await expect.poll(() => net.state.held).toBe(1);
    await a.api.call('auth.signOut', {});
    gate.open();
    await pulled;
    await ws.workspace.idle();
    net.state.rule = null;

    const second = newUser();
    await a.api.call('auth.signUp', second);
    await ws.workspace.idle();
    expect(await a.api.call('preferences.get', {})).toMatchObject({ nav_state: null });
    const secondView = await serverView(suite.env.baseUrl, second.email, second.password);
    await secondView.send('PUT', '/user/preferences', { nav_state: 'closed' });
    await a.api.call('sync.pull', {});
    expect(await a.api.call('preferences.get', {})).toMatchObject({ nav_state: 'closed' });
  });

  it("two sign-ins racing in two tabs leave the last one's preferences, unmixed", async () => {
    const first = newUser();
    const second = newUser();
    await createAccount(suite.env.baseUrl, first);
    await createAccount(suite.env.baseUrl, second);
    const firstView = await serverView(suite.env.baseUrl, first.email, first.password);
    await firstView.send('PUT', '/user/preferences', { nav_state: 'peek' });

    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    // The first sign-in's preferences are answered but not yet heard when the second lands.
    const gate = createGate();
    let preferenceReads = 0;
    net.state.rule = (url, init) => {
      if (init.method !== 'GET' || !url.endsWith('/user/preferences')) return null;
      preferenceReads += 1;
      return preferenceReads === 1 ? { hold: gate.opened } : null;
    };
    await a.api.call('auth.signIn', { email: first.email, password: first.password });
    await expect.poll(() => net.state.held).toBe(1);
    const state = await b.api.call('auth.signIn', {
      email: second.email,
      password: second.password,
    });
    expect(state).toMatchObject({ user: { email: second.email } });
    gate.open();
    await ws.workspace.idle();

    for (const tab of [a, b]) {
      expect(await tab.api.call('preferences.get', {})).toMatchObject({ nav_state: null });
    }
  });

  it("another worker instance's late answer does not land in the next user's mirror", async () => {
    // Two dedicated workers over one IndexedDB whose channels do not reach each other: only
    // the mirror itself can tell the late one that the session changed.
    const indexedDB = new IDBFactory();
    const locks = createMemoryLocks();
    const net = createFaultyFetch();
    const one = workspace({ indexedDB, locks, broadcastChannel: createBroadcastHub().channel });
    const a = await one.tab('tab-a');
    await a.api.call('auth.signIn', DEMO);
    await one.workspace.idle();
    // The second worker starts on the stored session and reads the demo notifications.
    const two = workspace({
      indexedDB,
      locks,
      fetch: net.fetch,
      broadcastChannel: createBroadcastHub().channel,
    });
    const b = await two.tab('tab-b');
    expect(b.session).toMatchObject({ status: 'signed-in' });
    expect((await b.api.call('notifications.window', { offset: 0, count: 20 })).rows).toHaveLength(
      20,
    );
    await two.workspace.idle();

    const gate = createGate();
    net.state.rule = (url) => (isNotifications(url) ? { hold: gate.opened } : null);
    await b.api.call('notifications.window', { offset: 0, count: 20 });
    await expect.poll(() => net.state.held).toBe(1);

    await a.api.call('auth.signOut', {});
    await a.api.call('auth.signUp', newUser());
    await one.workspace.idle();
    gate.open();
    await two.workspace.idle();

    const page = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(page).toEqual({ offset: 0, rows: [], total: 0, unread: 0 });
  });
});
