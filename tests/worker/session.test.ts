import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import type { FetchLike } from '../../worker/deps';
import {
  createBroadcastHub,
  createManualClock,
  createMemoryLocks,
  createScriptedFetch,
  settle,
  type RecordedRequest,
  type ScriptedReply,
} from '../../worker/testing';
import { createFaultyFetch, createGate, DEMO, newUser, setupWorkspaceSuite } from './support';

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

const userNamed = (name: string) => ({
  id: `user-${name}`,
  email: `${name}@example.com`,
  name,
  organization_id: 'o1',
  created_at: '2024-01-01T00:00:00.000Z',
});
const sessionOf = (name: string, round = 1) => ({
  id_token: `${name}-id-${round}`,
  refresh_token: `${name}-refresh-${round}`.padEnd(24, '.'),
  expires_in: 60,
  user: userNamed(name),
});
const ORG = { id: 'o1', name: 'Research', role: 'owner', permissions: [], members_count: 1 };
const EXPIRED: ScriptedReply = {
  status: 403,
  body: { error: 'token_expired', message: 'id token has expired; refresh it' },
};
const pathOf = (url: string) => new URL(url).pathname.replace(/^\/api/, '');

/**
 * A scripted server where ada signs in: `answer` picks the replies a test is about (by path),
 * the rest get harmless defaults.
 */
function scriptedServer(answer: (path: string, request: RecordedRequest) => ScriptedReply | null) {
  return createScriptedFetch((request) => {
    const path = pathOf(request.url);
    const special = answer(path, request);
    if (special) return special;
    if (path === '/auth/signin') return { status: 200, body: sessionOf('ada') };
    if (path === '/feature/config') return { status: 200, body: { results: {} } };
    if (path === '/user/preferences') {
      return { status: 200, body: { nav_state: null, overlay_widths: {} } };
    }
    if (path === '/organizations/self') return { status: 200, body: ORG };
    return { status: 200, body: { changes: [], cursor: 0, has_more: false, ok: true } };
  });
}
const ADA = { email: 'ada@example.com', password: 'whatever' };

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
    // Logged with the token that failed: the server still knows whose it is.
    const log = requests.find((r) => r.url.endsWith('/debug-logs'));
    expect(log?.headers.token).toBe('t1');
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

describe('refresh failures that must not sign anyone out', () => {
  it('keeps the session when /auth/refresh answers 5xx (a deploy), failing only the call', async () => {
    const { fetch } = scriptedServer((path) => {
      if (path === '/organizations/self') return EXPIRED;
      if (path === '/auth/refresh') {
        return { status: 503, body: { error: 'internal', message: 'server is restarting' } };
      }
      return null;
    });
    const ws = workspace({ fetch });
    const a = await ws.tab('tab-a');
    await a.api.call('auth.signIn', ADA);
    await ws.workspace.idle();
    await expect(a.api.call('org.self', {})).rejects.toMatchObject({
      status: 503,
      message: 'server is restarting',
    });
    await ws.workspace.idle();
    expect(a.events.some(isLogout)).toBe(false);
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
  });

  it('repeats a refresh whose answer was lost under the same key: the server replays it', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    skewMs = (TTL_SECONDS + 5) * 1000;

    // The server rotates the refresh token every time; every answer is lost on the way back.
    net.state.rule = (url) => (url.endsWith('/auth/refresh') ? 'lose-response' : null);
    await expect(a.api.call('org.self', {})).rejects.toMatchObject({ status: 0 });
    net.state.rule = null;
    expect((await a.api.call('org.self', {})).role).toBe('owner');
    expect(a.events.some(isLogout)).toBe(false);
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
  });
});

describe('sign-out and sign-in while a request is on its way', () => {
  it('a sign-out during a refresh does not bring the session back', async () => {
    const indexedDB = new IDBFactory();
    const net = createFaultyFetch();
    const ws = workspace({ indexedDB, fetch: net.fetch });
    const a = await ws.tab('tab-a');
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    skewMs = (TTL_SECONDS + 5) * 1000;

    const gate = createGate();
    net.state.rule = (url) => (url.endsWith('/auth/refresh') ? { hold: gate.opened } : null);
    const org = a.api.call('org.self', {}).then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => net.state.held).toBe(1);
    const signedOut = a.api.call('auth.signOut', {});
    expect(await a.waitFor(isLogout, { timeoutMs: 3_000 })).toEqual({
      type: 'logout',
      reason: 'signed-out',
      origin_tab: 'tab-a',
    });
    gate.open();
    await signedOut;
    expect(await org).toBe('failed');
    await ws.workspace.idle();
    expect(await a.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    const next = workspace({ indexedDB });
    expect((await next.tab()).session).toEqual({ status: 'signed-out' });
  });

  it("does not retry one account's request with the next account's token", async () => {
    const gate = createGate();
    const sent: Array<{ path: string; token?: string }> = [];
    const reply = (status: number, body: unknown) => ({
      status,
      text: async () => JSON.stringify(body),
    });
    const fetch: FetchLike = async (url, init) => {
      const path = pathOf(url);
      sent.push({ path, token: init.headers.token });
      if (path === '/auth/signin') {
        const { email } = JSON.parse(init.body ?? '{}') as { email: string };
        return reply(200, sessionOf(email.split('@')[0]));
      }
      if (path === '/organizations/self' && init.headers.token === 'ada-id-1') {
        await gate.opened;
        return reply(403, (EXPIRED as { body: unknown }).body);
      }
      if (path === '/organizations/self') return reply(200, ORG);
      if (path === '/auth/refresh') return reply(200, sessionOf('ada', 2));
      if (path === '/feature/config') return reply(200, { results: {} });
      if (path === '/user/preferences') return reply(200, { nav_state: null, overlay_widths: {} });
      return reply(200, { changes: [], cursor: 0, has_more: false, ok: true });
    };
    const ws = workspace({ fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signIn', ADA);
    await ws.workspace.idle();
    const org = a.api.call('org.self', {}).then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => sent.some((r) => r.path === '/organizations/self')).toBe(true);
    await b.api.call('auth.signIn', { email: 'bob@example.com', password: 'whatever' });
    gate.open();
    expect(await org).toBe('failed');
    const asBob = sent.filter((r) => r.path === '/organizations/self' && r.token === 'bob-id-1');
    expect(asBob).toEqual([]);
  });

  it('signing out of a session that can no longer be refreshed shows no sign-in-required modal', async () => {
    const { fetch, requests } = scriptedServer((path) => {
      if (path === '/auth/signout' || path === '/organizations/self') return EXPIRED;
      if (path === '/auth/refresh') {
        return { status: 401, body: { error: 'unauthorized', message: 'refresh token revoked' } };
      }
      return null;
    });
    const ws = workspace({ fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signIn', ADA);
    await ws.workspace.idle();
    await a.api.call('auth.signOut', {});
    await ws.workspace.idle();
    await settle();
    for (const tab of [a, b]) {
      expect(tab.events.filter(isLogout)).toEqual([
        { type: 'logout', reason: 'signed-out', origin_tab: 'tab-a' },
      ]);
    }
    expect(requests.some((r) => r.url.endsWith('/auth/refresh'))).toBe(false);
    // The server is told best effort, with the refresh token to revoke.
    const signOut = requests.find((r) => r.url.endsWith('/auth/signout'));
    expect(JSON.parse(signOut?.body ?? '{}')).toEqual({
      refresh_token: sessionOf('ada').refresh_token,
    });
    expect(await a.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
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
