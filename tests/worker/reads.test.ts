import { describe, expect, it } from 'vitest';
import { AUTH_POLL_MS, ONBOARDING_FLAGS_FRESH_MS } from '../../contract/constants';
import type { WorkerEvent } from '../../contract/worker-api';
import { createManualClock } from '../../worker/testing';
import {
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

/**
 * The demo inbox as seeded: 24 notifications about documents of the demo feed and a welcome,
 * newest first, the 5 oldest read.
 */
const NEWEST =
  'New in Markets Wire: Granite Peak Energy Corp board approves share buyback of up to $1,258 million';
const OLDEST = 'Welcome to Demo Research';
const LIST = '#list';

const isChanged = (store: string) => (e: WorkerEvent) => e.type === 'changed' && e.store === store;

describe('notification windows (a fresh demo inbox each)', () => {
  const inbox = setupWorkspaceSuite();

  it('answers from the mirror, fetching the pages it lacks in order and naming the new keys', async () => {
    const ws = inbox.workspace();
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    // Nothing mirrored: page 1 is awaited (it carries the counts); rows past it are not here yet.
    const far = await a.api.call('notifications.window', { offset: 20, count: 10 });
    expect(far).toEqual({ offset: 20, rows: [], total: 25, unread: 20 });
    // Page 2 lands in the background; the tab hears which keys are new.
    const landed = await a.waitFor(isChanged('notifications'));
    const again = await a.api.call('notifications.window', { offset: 20, count: 10 });
    expect(again).toMatchObject({ offset: 20, total: 25, unread: 20 });
    expect(again.rows.map((r) => r.read)).toEqual([true, true, true, true, true]);
    expect(again.rows[4].title).toBe(OLDEST);
    expect(landed).toEqual({
      type: 'changed',
      store: 'notifications',
      keys: expect.arrayContaining([...again.rows.map((r) => r.id), LIST]),
    });
    expect((landed as { keys: string[] }).keys).toHaveLength(6);

    const top = await a.api.call('notifications.window', { offset: 0, count: 3 });
    expect(top.rows.map((r) => r.title)).toEqual([
      NEWEST,
      'New in Macro Monitor: Vindhya Life to acquire rival unit for Rs 7,801 crore',
      'New in Tech Ledger: Bluestem wins $911 million multi-year cloud deal',
    ]);
    // The CLI's pages read the same mirror.
    expect(await a.api.call('notifications.page', { page: 2 })).toMatchObject({
      page: 2,
      page_size: 20,
      total: 25,
      unread: 20,
      results: again.rows,
    });
  });
});

describe('notification revalidation (a fresh demo inbox)', () => {
  const inbox = setupWorkspaceSuite();

  it('answers from the mirror at once, then revalidates and names the keys that changed', async () => {
    const ws = inbox.workspace();
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    const first = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(first).toMatchObject({ total: 25, unread: 20 });
    const target = first.rows[0];
    expect(target).toMatchObject({ title: NEWEST, read: false });
    await ws.workspace.idle();

    // Another device reads it.
    const other = await serverView(inbox.env.baseUrl, DEMO.email, DEMO.password);
    await other.send('POST', '/notifications/read', { ids: [target.id] });

    const since = a.events.length;
    expect(await a.api.call('notifications.window', { offset: 0, count: 20 })).toEqual(first);
    const changed = await a.waitFor(isChanged('notifications'), { since });
    expect(changed).toEqual({
      type: 'changed',
      store: 'notifications',
      keys: expect.arrayContaining([target.id, LIST]),
    });
    expect((changed as { keys: string[] }).keys).toHaveLength(2);
    const fresh = await a.api.call('notifications.window', { offset: 0, count: 20 });
    expect(fresh.rows[0]).toMatchObject({ id: target.id, read: true });
    expect(fresh.unread).toBe(19);
  });
});

describe('notifications marked read (a fresh demo inbox)', () => {
  const inbox = setupWorkspaceSuite();

  it('marks them read optimistically, moves the unread count, and the server agrees', async () => {
    const ws = inbox.workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signIn', DEMO);
    const before = await b.api.call('notifications.window', { offset: 0, count: 20 });
    expect(before.unread).toBe(20);
    const ids = before.rows.slice(0, 2).map((n) => n.id);

    await a.api.call('notifications.markRead', { ids });
    const after = await b.api.call('notifications.window', { offset: 0, count: 20 });
    expect(after.unread).toBe(18);
    expect(after.rows.slice(0, 3).map((n) => n.read)).toEqual([true, true, false]);

    const other = await serverView(inbox.env.baseUrl, DEMO.email, DEMO.password);
    expect(await other.get('/notifications?page=1')).toMatchObject({ unread: 18 });
  });
});

describe('notifications from the change feed (a fresh demo inbox)', () => {
  const inbox = setupWorkspaceSuite();

  it("applies another device's mark to the mirrored row and the count, without a refetch", async () => {
    const net = createFaultyFetch();
    const ws = inbox.workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    const first = await a.api.call('notifications.window', { offset: 0, count: 20 });
    const target = first.rows[2];
    await ws.workspace.idle();

    const other = await serverView(inbox.env.baseUrl, DEMO.email, DEMO.password);
    await other.send('POST', '/notifications/read', { ids: [target.id] });
    const reads = () => net.state.sent.filter((s) => s === 'GET /api/notifications').length;
    const fetched = reads();
    const since = a.events.length;
    expect(await a.api.call('sync.pull', {})).toMatchObject({ applied: 1 });
    expect(await a.waitFor(isChanged('notifications'), { since })).toEqual({
      type: 'changed',
      store: 'notifications',
      keys: [target.id, LIST],
    });
    expect(reads()).toBe(fetched);
    const db = await mirrorOf(ws);
    expect(await db.get('notifications', target.id)).toMatchObject({ read: true });
    expect(await db.get('notifications', LIST)).toMatchObject({ total: 25, unread: 19 });
    db.close();
  });
});

describe('reads from the mirror', () => {
  it('keeps feature flags and preferences cached (fetched again on sign-in only)', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    const fetched = net.state.sent.length;
    const flags = await a.api.call('flags.get', {});
    expect(flags.ask_needl_copilot).toBe(true);
    await a.api.call('flags.get', {});
    await a.api.call('preferences.get', {});
    await ws.workspace.idle();
    expect(net.state.sent.slice(fetched)).toEqual([]);
  });

  it('treats onboarding flags as fresh for 20 s', async () => {
    const clock = createManualClock();
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch, clock });
    const a = await ws.tab('tab', { visible: false });
    await a.api.call('auth.signUp', newUser());
    const count = () => net.state.sent.filter((s) => s === 'GET /api/onboarding/flags').length;

    const flags = await a.api.call('onboarding.flags', {});
    expect(flags).toEqual({
      show_attributes_form: expect.any(Boolean),
      show_search_modal: expect.any(Boolean),
    });
    await clock.advance(ONBOARDING_FLAGS_FRESH_MS - 1);
    await a.api.call('onboarding.flags', {});
    expect(count()).toBe(1);
    await clock.advance(1);
    await a.api.call('onboarding.flags', {});
    expect(count()).toBe(2);
  });

  it('fetches feature config with a cancel signal: a sign-out cancels it', async () => {
    const net = createFaultyFetch();
    const gate = createGate();
    net.state.rule = (url) => (url.endsWith('/feature/config') ? { hold: gate.opened } : null);
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    // The sign-in's refetch of feature config is answered but not yet heard; the read joins it.
    const flags = a.api.call('flags.get', {}).catch((error: unknown) => error);
    await expect.poll(() => net.state.held).toBe(1);
    await a.api.call('auth.signOut', {});
    expect(await flags).toMatchObject({ name: 'AbortError' });
    gate.open();
  });

  it('rejects bad input naming the field, and unknown operations', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await expect(a.api.call('notifications.page', { page: 0 })).rejects.toThrow(
      'Invalid input for "notifications.page": page:',
    );
    await expect(
      a.api.call('preferences.update', { nav_state: 'sideways' as never }),
    ).rejects.toThrow('Invalid input for "preferences.update": nav_state:');
    await expect(a.api.call('feeds.everything' as never, {} as never)).rejects.toThrow(
      'Unknown workspace operation "feeds.everything"',
    );
  });
});

describe('change-feed pull', () => {
  it('brings a change made on another device into every tab, on the auth poll', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b', { visible: false });
    const user = newUser();
    await a.api.call('auth.signUp', user);
    expect(await b.api.call('preferences.get', {})).toMatchObject({ nav_state: null });
    await ws.workspace.idle();

    const other = await serverView(suite.env.baseUrl, user.email, user.password);
    await other.send('PUT', '/user/preferences', { nav_state: 'closed' });
    const since = b.events.length;
    await clock.advance(AUTH_POLL_MS);
    await ws.workspace.idle();

    expect(await b.waitFor((e) => e.type === 'preferences', { since })).toMatchObject({
      preferences: { nav_state: 'closed' },
    });
    expect(await b.api.call('preferences.get', {})).toMatchObject({ nav_state: 'closed' });
    expect(await a.api.call('sync.pull', {})).toMatchObject({ applied: 0 });
  });
});
