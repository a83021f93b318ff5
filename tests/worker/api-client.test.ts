import { describe, expect, it } from 'vitest';
import { API_RETRY_DELAY_MS } from '../../contract/constants';
import { ApiError, createApiClient, type AuthHooks } from '../../worker/api-client';
import {
  createManualClock,
  createScriptedFetch,
  settle,
  type ScriptedReply,
} from '../../worker/testing';

const ORG = { id: 'o1', name: 'Demo Research', role: 'owner', permissions: [], members_count: 1 };
const PREFS = { nav_state: 'opened', overlay_widths: {} };
const ok = (body: unknown): ScriptedReply => ({ status: 200, body });
const fail = (status: number, error: string, message: string): ScriptedReply => ({
  status,
  body: { error, message },
});
const offline: ScriptedReply = { networkError: true };

function setup(script: ScriptedReply[], auth: Partial<AuthHooks> = {}) {
  const clock = createManualClock(1_000);
  const { fetch, requests } = createScriptedFetch(script, clock);
  const calls = { missing: 0, unauthorized: [] as string[], refresh: [] as string[] };
  let token: string | null = 'token-1';
  let n = 1;
  const client = createApiClient({
    fetch,
    clock,
    baseUrl: 'http://api.test/api',
    product: 'needl',
    randomId: () => `key-${n++}`,
    auth: {
      token: () => token,
      async refresh(stale) {
        calls.refresh.push(stale);
        token = `token-${calls.refresh.length + 1}`;
        return token;
      },
      missing: () => {
        calls.missing += 1;
      },
      unauthorized: (t) => calls.unauthorized.push(t),
      ...auth,
    },
  });
  const clearToken = () => {
    token = null;
  };
  return { client, clock, requests, calls, clearToken };
}

/** Lets the call run to its next retry timer, then fires it. */
const nextRetry = (clock: ReturnType<typeof createManualClock>) =>
  clock.advance(API_RETRY_DELAY_MS);

describe('api client: headers', () => {
  it('sends token, app-type and x-request-origin on every call, and a key on mutations only', async () => {
    const { client, requests } = setup([ok(ORG), ok(PREFS)]);
    await client.call('organizationSelf', { variant: 'pulse' });
    await client.call('updatePreferences', { body: { nav_state: 'opened' } });
    expect(requests[0].url).toBe('http://api.test/api/organizations/self');
    expect(requests[0].headers).toMatchObject({
      token: 'token-1',
      'app-type': 'pulse',
      'x-request-origin': 'web-app',
    });
    expect(requests[0].headers['idempotency-key']).toBeUndefined();
    expect(requests[1].method).toBe('PUT');
    expect(requests[1].headers['app-type']).toBe('main');
    expect(requests[1].headers['idempotency-key']).toBe('key-1');
    expect(JSON.parse(requests[1].body ?? '')).toEqual({ nav_state: 'opened' });
  });

  it('fills {product} in paths and puts the query in the URL', async () => {
    const { client, requests } = setup([
      ok({ ok: true }),
      ok({ results: [], page: 2, page_size: 20, total: 0, unread: 0 }),
    ]);
    await client.call('analyticsReport', {
      body: {
        adblocker_installed: false,
        mp_info: { event_name: 'visit', distinct_id: 'u', email: 'a@b.c', name: 'A' },
      },
    });
    await client.call('notifications', { query: { page: 2 } });
    expect(requests[0].url).toBe('http://api.test/api/needl-analytics/report');
    expect(requests[1].url).toBe('http://api.test/api/notifications?page=2');
  });

  it('rejects an answer that does not match the contract, naming the field', async () => {
    const { client } = setup([ok({ ...ORG, members_count: 'many' })]);
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('members_count'),
    });
  });
});

describe('api client: retries (000 §7)', () => {
  it('retries a network error twice, 300 ms apart, then succeeds', async () => {
    const { client, clock, requests } = setup([offline, offline, ok(ORG)]);
    const answer = client.call('organizationSelf');
    await nextRetry(clock);
    await nextRetry(clock);
    await expect(answer).resolves.toEqual(ORG);
    expect(requests.map((r) => r.at)).toEqual([1_000, 1_300, 1_600]);
  });

  it('gives up after 2 retries with a network ApiError (status 0)', async () => {
    const { client, clock, requests } = setup([offline, offline, offline, ok(ORG)]);
    const answer = client.call('organizationSelf');
    answer.catch(() => {});
    await nextRetry(clock);
    await nextRetry(clock);
    await expect(answer).rejects.toMatchObject({ name: 'ApiError', status: 0, code: 'network' });
    expect(requests).toHaveLength(3);
  });

  it('retries a 500 twice and rejects with the server message after that', async () => {
    const boom = fail(500, 'internal', 'database unavailable');
    const { client, clock, requests } = setup([boom, boom, boom]);
    const answer = client.call('preferences');
    answer.catch(() => {});
    await nextRetry(clock);
    await nextRetry(clock);
    await expect(answer).rejects.toMatchObject({
      status: 500,
      code: 'internal',
      message: 'database unavailable',
    });
    expect(requests.map((r) => r.at)).toEqual([1_000, 1_300, 1_600]);
  });

  it('retries a mutation with the same idempotency key', async () => {
    const { client, clock, requests } = setup([offline, fail(503, 'internal', 'busy'), ok(PREFS)]);
    const answer = client.call('updatePreferences', { body: { nav_state: 'opened' } });
    await nextRetry(clock);
    await nextRetry(clock);
    await expect(answer).resolves.toEqual(PREFS);
    const keys = requests.map((r) => r.headers['idempotency-key']);
    expect(new Set(keys)).toEqual(new Set(['key-1']));
    expect(keys).toHaveLength(3);
  });

  it.each([
    [401, 'unauthorized', 'unknown token'],
    [404, 'not_found', 'no such notification'],
    [400, 'bad_request', 'ids: ids must not be empty'],
    [409, 'conflict', 'idempotency-key was already used'],
  ])('never retries a %i', async (status, error, message) => {
    const { client, requests } = setup([fail(status, error, message), ok(ORG)]);
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      status,
      code: error,
      message,
    });
    expect(requests).toHaveLength(1);
  });

  it('tells the session about a 401 on an authenticated call, with the token it used', async () => {
    const { client, calls } = setup([fail(401, 'unauthorized', 'unknown token')]);
    await expect(client.call('featureConfig')).rejects.toBeInstanceOf(ApiError);
    expect(calls.unauthorized).toEqual(['token-1']);
  });

  it('does not treat a wrong password (401 on sign-in) as a lost session', async () => {
    const { client, calls } = setup([fail(401, 'unauthorized', 'e-mail or password is incorrect')]);
    await expect(
      client.call('signIn', { body: { email: 'a@b.c', password: 'nope' } }),
    ).rejects.toMatchObject({ message: 'e-mail or password is incorrect' });
    expect(calls.unauthorized).toEqual([]);
  });
});

describe('api client: 403 and refresh (000 §8)', () => {
  it('gets a fresh token on 403 and retries with it', async () => {
    const { client, requests, calls } = setup([fail(403, 'token_expired', 'expired'), ok(ORG)]);
    await expect(client.call('organizationSelf')).resolves.toEqual(ORG);
    expect(calls.refresh).toEqual(['token-1']);
    expect(requests.map((r) => r.headers.token)).toEqual(['token-1', 'token-2']);
  });

  it('retries at most twice after 403, then logs to the backend and rejects', async () => {
    const forbidden = fail(403, 'forbidden', 'not allowed');
    const { client, requests, calls } = setup([forbidden, forbidden, forbidden, ok({ ok: true })]);
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      status: 403,
      message: 'not allowed',
    });
    expect(calls.refresh).toHaveLength(2);
    await settle();
    const calls403 = requests.filter((r) => r.url.endsWith('/organizations/self'));
    expect(calls403).toHaveLength(3);
    const log = requests.find((r) => r.url.endsWith('/debug-logs'));
    expect(log?.method).toBe('POST');
    expect(JSON.parse(log?.body ?? '{}').logData).toMatchObject({
      event: 'forbidden_after_refresh',
    });
  });

  it('rejects with the refresh failure when the token cannot be refreshed', async () => {
    const refreshFailure = new ApiError(401, 'unauthorized', 'refresh token revoked');
    const { client, requests } = setup([fail(403, 'token_expired', 'expired'), ok({ ok: true })], {
      refresh: () => Promise.reject(refreshFailure),
    });
    await expect(client.call('organizationSelf')).rejects.toBe(refreshFailure);
    await settle();
    expect(requests.filter((r) => r.url.endsWith('/organizations/self'))).toHaveLength(1);
    expect(requests.some((r) => r.url.endsWith('/debug-logs'))).toBe(true);
  });
});

describe('api client: no token (000 §8)', () => {
  it('broadcasts the logout and never completes, holding no timer', async () => {
    const { client, clock, requests, calls, clearToken } = setup([ok(ORG)]);
    clearToken();
    let settled = false;
    client.call('organizationSelf').then(
      () => (settled = true),
      () => (settled = true),
    );
    await clock.advance(60_000);
    expect(calls.missing).toBe(1);
    expect(settled).toBe(false);
    expect(requests).toHaveLength(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('lets background work see a plain rejection instead', async () => {
    const { client, calls, clearToken } = setup([]);
    clearToken();
    await expect(client.call('session', { background: true })).rejects.toMatchObject({
      code: 'no_token',
    });
    expect(calls.missing).toBe(0);
  });
});

describe('api client: a token known to be expired', () => {
  it('is refreshed before the call instead of after a 403', async () => {
    const { client, requests, calls } = setup([ok(ORG)], { expired: (t) => t === 'token-1' });
    await expect(client.call('organizationSelf')).resolves.toEqual(ORG);
    expect(calls.refresh).toEqual(['token-1']);
    expect(requests.map((r) => r.headers.token)).toEqual(['token-2']);
  });
});
