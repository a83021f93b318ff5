import { describe, expect, it } from 'vitest';
import { AUTH_POLL_MS, ONBOARDING_FLAGS_FRESH_MS } from '../../contract/constants';
import { createManualClock } from '../../worker/testing';
import { createFaultyFetch, DEMO, newUser, serverView, setupWorkspaceSuite } from './support';

const suite = setupWorkspaceSuite();
const { workspace } = suite;

describe('reads from the mirror', () => {
  it('answers from the mirror at once, then revalidates and says what changed', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await a.api.call('auth.signIn', DEMO);
    const first = await a.api.call('notifications.page', { page: 1 });
    expect(first.results).toHaveLength(20);
    const target = first.results.find((n) => !n.read);
    if (!target) throw new Error('the demo workspace should have unread notifications');

    // Another device reads it.
    const other = await serverView(suite.env.baseUrl, DEMO.email, DEMO.password);
    await other.send('POST', '/notifications/read', { ids: [target.id] });

    const since = a.events.length;
    const cached = await a.api.call('notifications.page', { page: 1 });
    expect(cached).toEqual(first);
    await a.waitFor((e) => e.type === 'changed' && e.stores.includes('notifications'), { since });
    const fresh = await a.api.call('notifications.page', { page: 1 });
    expect(fresh.results.find((n) => n.id === target.id)?.read).toBe(true);
    expect(fresh.unread).toBe(first.unread - 1);
  });

  it('marks notifications read optimistically and the server agrees', async () => {
    const ws = workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signIn', DEMO);
    const before = await b.api.call('notifications.page', { page: 1 });
    const unread = before.results.filter((n) => !n.read).slice(0, 2);
    expect(unread).toHaveLength(2);

    await a.api.call('notifications.markRead', { ids: unread.map((n) => n.id) });
    const after = await b.api.call('notifications.page', { page: 1 });
    expect(after.unread).toBe(before.unread - 2);
    for (const n of unread) expect(after.results.find((r) => r.id === n.id)?.read).toBe(true);

    const other = await serverView(suite.env.baseUrl, DEMO.email, DEMO.password);
    const server = (await other.get('/notifications?page=1')) as typeof before;
    expect(server.unread).toBe(after.unread);
  });

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
