import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import {
  createBroadcastHub,
  createManualClock,
  createMemoryLocks,
  createScriptedFetch,
  settle,
} from '../../worker/testing';
import { DEMO, newUser, setupWorkspaceSuite } from './support';

const TTL_SECONDS = 60;
/** The server's clock: tests move it past the id token's lifetime. */
let skewMs = 0;

// Registered before the suite's hooks so that it runs after them (vitest runs after-hooks in
// reverse): the workspaces close while the server's clock is still the test's.
afterEach(() => {
  skewMs = 0;
});
const { workspace } = setupWorkspaceSuite({
  idTokenTtlSeconds: TTL_SECONDS,
  now: () => Date.now() + skewMs,
});
const isLogout = (e: WorkerEvent) => e.type === 'logout';

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

  it('refreshes an expired id token on 403 and the call succeeds', async () => {
    const ws = workspace();
    const a = await ws.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();
    skewMs = (TTL_SECONDS + 5) * 1000;
    const org = await a.api.call('org.self', {});
    expect(org.role).toBe('owner');
    expect(a.events.some(isLogout)).toBe(false);
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
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

    let settled = false;
    b.api.call('flags.get', {}).then(
      () => (settled = true),
      () => (settled = true),
    );
    // No token: a session-lost logout reaches every tab (the sign-in-required modal).
    for (const tab of [a, b]) {
      await tab.waitFor((e) => e.type === 'logout' && e.reason === 'session-lost');
    }
    await ws.workspace.idle();
    await settle();
    expect(settled).toBe(false);
  });

  it('without a token a call never completes and holds no timer', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    let settled = false;
    a.api.call('notifications.page', { page: 1 }).then(
      () => (settled = true),
      () => (settled = true),
    );
    const event = await b.waitFor(isLogout);
    expect(event).toEqual({ type: 'logout', reason: 'session-lost', origin_tab: null });
    await ws.workspace.idle();
    await clock.advance(600_000);
    expect(settled).toBe(false);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('signs every tab out when the token cannot be refreshed', async () => {
    const user = {
      id: 'u1',
      email: 'ada@example.com',
      name: 'Ada',
      organization_id: 'o1',
      created_at: 'x',
    };
    const session = { id_token: 't1', refresh_token: 'r'.repeat(24), expires_in: 60, user };
    const { fetch, requests } = createScriptedFetch((request) => {
      if (request.url.endsWith('/auth/signin')) return { status: 200, body: session };
      if (request.url.endsWith('/auth/refresh')) {
        return { status: 401, body: { error: 'unauthorized', message: 'refresh token revoked' } };
      }
      if (request.url.endsWith('/organizations/self')) {
        return { status: 403, body: { error: 'token_expired', message: 'id token expired' } };
      }
      if (request.url.endsWith('/feature/config')) return { status: 200, body: { results: {} } };
      if (request.url.endsWith('/user/preferences')) {
        return { status: 200, body: { nav_state: null, overlay_widths: {} } };
      }
      return { status: 200, body: { changes: [], cursor: 0, has_more: false, ok: true } };
    });
    const ws = workspace({ fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signIn', { email: 'ada@example.com', password: 'whatever' });
    await ws.workspace.idle();
    await expect(b.api.call('org.self', {})).rejects.toMatchObject({
      message: 'refresh token revoked',
    });
    for (const tab of [a, b]) {
      expect(await tab.waitFor(isLogout)).toMatchObject({ reason: 'session-lost' });
    }
    expect(await a.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    expect(requests.some((r) => r.url.endsWith('/debug-logs'))).toBe(true);
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
    await ws.workspace.idle();
    expect(a.events.some((e) => e.type === 'reload')).toBe(false);
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
