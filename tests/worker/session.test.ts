import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createBroadcastHub, createManualClock, createMemoryLocks } from '../../worker/testing';
import {
  ADA,
  isLogout,
  pending,
  scriptedServer,
  sessionOf,
  setupSessionSuite,
} from './session-support';
import { DEMO, newUser } from './support';

const { workspace } = setupSessionSuite();

describe('session across tabs', () => {
  it('signs in from one tab and every tab hears of it', async () => {
    const ws = workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    expect(a.session).toEqual({ status: 'signed-out' });

    const state = await a.api.call('auth.signIn', DEMO);
    expect(state).toMatchObject({ status: 'signed-in', user: { email: DEMO.email } });
    for (const tab of [a, b]) {
      const event = await tab.waitFor((e) => e.type === 'session');
      expect(event).toMatchObject({
        session: { status: 'signed-in', user: { name: 'Demo User' } },
      });
    }
    const flags = await b.api.call('flags.get', {});
    expect(flags.search).toBe(true);
    expect(flags.is_pricing).toBe(false);
  });

  it('reports a wrong password and bad input with clear messages', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await expect(
      a.api.call('auth.signIn', { email: DEMO.email, password: 'not-the-password' }),
    ).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      message: 'e-mail or password is incorrect',
    });
    await expect(
      a.api.call('auth.signIn', { email: 'not-an-email', password: 'x' }),
    ).rejects.toThrow(
      'Invalid input for "auth.signIn": email: email must be a valid e-mail address',
    );
  });

  it("signs out in one tab: both tabs hear it, and the other tab's next call never completes", async () => {
    const ws = workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signUp', newUser());
    await a.api.call('auth.signOut', {});
    for (const tab of [a, b]) {
      expect(await tab.waitFor(isLogout)).toEqual({
        type: 'logout',
        reason: 'signed-out',
        origin_tab: 'tab-a',
      });
    }

    const flags = pending(b.api.call('flags.get', {}));
    // No token: a session-lost logout reaches every tab (the sign-in-required modal).
    for (const tab of [a, b]) {
      await tab.waitFor((e) => e.type === 'logout' && e.reason === 'session-lost');
    }
    // The port answers in order: a later call is answered, the call without a token is not.
    expect(await b.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    expect(flags.settled).toBe(false);
  });

  it('without a token a call never completes and holds no timer', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    const page = pending(a.api.call('notifications.page', { page: 1 }));
    const event = await b.waitFor(isLogout);
    expect(event).toEqual({ type: 'logout', reason: 'session-lost', origin_tab: null });
    await ws.workspace.idle();
    expect(clock.pendingTimers()).toBe(0);
    expect(await a.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    expect(page.settled).toBe(false);
  });

  it('resumes the session in a new worker instance over the same IndexedDB', async () => {
    const indexedDB = new IDBFactory();
    const first = workspace({ indexedDB });
    const a = await first.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await first.close();

    const second = workspace({ indexedDB });
    const b = await second.tab();
    expect(b.session).toMatchObject({ status: 'signed-in', user: { email: user.email } });
    expect((await b.api.call('org.self', {})).role).toBe('owner');
  });

  it('keeps the stored redirect across sign-in and gives it out once', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await a.api.call('auth.storeRedirect', { path: '/search?q=crisil' });
    await a.api.call('auth.signIn', DEMO);
    expect(await a.api.call('auth.takeRedirect', {})).toEqual({ path: '/search?q=crisil' });
    expect(await a.api.call('auth.takeRedirect', {})).toEqual({ path: null });
  });

  it('tells the other tabs to reload after an OAuth sign-in', async () => {
    const ws = workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.oauthComplete', {});
    expect(await b.waitFor((e) => e.type === 'reload')).toEqual({
      type: 'reload',
      reason: 'oauth',
    });
    // b's own OAuth sign-in reloads a: once that arrives, a would have had its own before it.
    await b.api.call('auth.oauthComplete', {});
    await a.waitFor((e) => e.type === 'reload');
    expect(a.events.filter((e) => e.type === 'reload')).toHaveLength(1);
    expect(b.events.filter((e) => e.type === 'reload')).toHaveLength(1);
  });
});

describe('logs with no token to go with (000 §8)', () => {
  it('keeps the last 20 no-token logs and sends them after the next sign-in', async () => {
    const { fetch, requests } = scriptedServer(() => null);
    const ws = workspace({ fetch });
    const a = await ws.tab('tab-a');
    for (let i = 0; i < 25; i += 1) void a.api.call('flags.get', {});
    await a.waitFor(isLogout);
    await ws.workspace.idle();
    const logs = () => requests.filter((r) => r.url.endsWith('/debug-logs'));
    expect(logs()).toEqual([]);

    await a.api.call('auth.signIn', ADA);
    await ws.workspace.idle();
    expect(logs()).toHaveLength(20);
    for (const log of logs()) {
      expect(log.headers.token).toBe(sessionOf('ada').id_token);
      expect(JSON.parse(log.body ?? '{}').logData).toMatchObject({
        event: 'no_token',
        call: 'flags.get',
      });
    }
    // Sent once: a later sign-in has nothing left to send.
    await a.api.call('auth.signIn', ADA);
    await ws.workspace.idle();
    expect(logs()).toHaveLength(20);
  });
});

describe('dedicated-worker fallback (one worker per tab)', () => {
  it('carries sign-in, logout and OAuth reload between worker instances', async () => {
    const profile = {
      indexedDB: new IDBFactory(),
      locks: createMemoryLocks(),
      broadcastChannel: createBroadcastHub().channel,
    };
    const one = workspace(profile);
    const two = workspace(profile);
    const a = await one.tab('tab-a');
    const b = await two.tab('tab-b');

    await a.api.call('auth.signUp', newUser());
    expect(await b.waitFor((e) => e.type === 'session')).toMatchObject({
      session: { status: 'signed-in' },
    });
    expect((await b.api.call('org.self', {})).role).toBe('owner');

    await a.api.call('auth.oauthComplete', {});
    await b.waitFor((e) => e.type === 'reload');

    await a.api.call('auth.signOut', {});
    expect(await b.waitFor(isLogout)).toEqual({
      type: 'logout',
      reason: 'signed-out',
      origin_tab: 'tab-a',
    });
    expect(await b.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
  });
});
