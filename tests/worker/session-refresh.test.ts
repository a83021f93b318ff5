import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../worker/deps';
import { responseOf } from '../../worker/testing';
import {
  ADA,
  delivered,
  EXPIRED,
  isLogout,
  logouts,
  ORG,
  pathOf,
  scriptedServer,
  sessionOf,
  setupSessionSuite,
} from './session-support';
import { createFaultyFetch, createGate, errorResponse, logsWith, newUser } from './support';

const { workspace, expireTokens } = setupSessionSuite();

describe('refresh (000 §8)', () => {
  it('refreshes an expired id token on 403 and the call succeeds', async () => {
    const ws = workspace();
    const a = await ws.tab();
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();
    expireTokens();
    const org = await a.api.call('org.self', {});
    expect(org.role).toBe('owner');
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
    await delivered(ws, a);
    expect(logouts(a)).toEqual([]);
  });

  it('signs every tab out when the token cannot be refreshed', async () => {
    const { fetch, requests } = scriptedServer((path) => {
      if (path === '/organizations/self') return EXPIRED;
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
    // The session ends before the refresh's failure reaches the call, and its end cancels the
    // reads it started.
    await expect(b.api.call('org.self', {})).rejects.toMatchObject({
      name: 'AbortError',
      message: 'GET /organizations/self was cancelled',
    });
    for (const tab of [a, b]) {
      expect(await tab.waitFor(isLogout)).toEqual({
        type: 'logout',
        reason: 'session-lost',
        origin_tab: null,
      });
    }
    expect(await a.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    // Logged once, with the token that failed: the server still knows whose it is.
    const logs = requests.filter((r) => r.url.endsWith('/debug-logs'));
    expect(logs.map((r) => [r.headers.token, JSON.parse(r.body ?? '{}').logData])).toEqual([
      [
        'ada-id-1',
        {
          event: 'token_refresh_failed',
          call: 'GET /organizations/self',
          message: 'refresh token revoked',
        },
      ],
    ]);
  });
});

describe('a failed refresh (000 §8: log, then sign out)', () => {
  it('sends exactly one debug log, however many calls waited on the refresh', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    expireTokens();
    net.state.rule = (url) =>
      url.endsWith('/auth/refresh')
        ? errorResponse(401, 'unauthorized', 'refresh token revoked')
        : null;

    // Two tabs ask the server at once; both get 403 for the expired token and wait on the one
    // refresh.
    const calls = await Promise.allSettled([
      a.api.call('org.self', {}),
      b.api.call('sync.pull', {}),
    ]);
    expect(calls.map((c) => c.status)).toEqual(['rejected', 'rejected']);
    for (const tab of [a, b]) {
      expect(await tab.waitFor(isLogout)).toEqual({
        type: 'logout',
        reason: 'session-lost',
        origin_tab: null,
      });
    }
    await ws.workspace.idle();
    expect(logsWith(net.state.requests, 'token_refresh_failed')).toHaveLength(1);
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
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
    await delivered(ws, a);
    expect(logouts(a)).toEqual([]);
  });

  it('repeats a refresh whose answer was lost under the same key: the server replays it', async () => {
    const net = createFaultyFetch();
    const ws = workspace({ fetch: net.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    expireTokens();

    // The server rotates the refresh token every time; every answer is lost on the way back.
    net.state.rule = (url) => (url.endsWith('/auth/refresh') ? 'lose-response' : null);
    await expect(a.api.call('org.self', {})).rejects.toMatchObject({ status: 0 });
    net.state.rule = null;
    expect((await a.api.call('org.self', {})).role).toBe('owner');
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
    await delivered(ws, a);
    expect(logouts(a)).toEqual([]);
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
    expireTokens();

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
    const reply = (status: number, body: unknown) => responseOf(status, JSON.stringify(body));
    const fetch: FetchLike = async (url, init) => {
      const path = pathOf(url);
      sent.push({ path, token: init.headers.token });
      if (path === '/auth/signin') {
        const { email } = JSON.parse(String(init.body)) as { email: string };
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
      return reply(200, { changes: [], cursor: 0, has_more: false, reset: false, ok: true });
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
    await delivered(ws, a, b);
    for (const tab of [a, b]) {
      expect(logouts(tab)).toEqual([{ type: 'logout', reason: 'signed-out', origin_tab: 'tab-a' }]);
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
