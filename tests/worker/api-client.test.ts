import { describe, expect, it } from 'vitest';
import { API_RETRY_DELAY_MS } from '../../contract/constants';
import { ApiError } from '../../worker/api-client';
import { fail, offline, ok, ORG, PREFS, setup } from './api-client-support';

describe('api client: headers', () => {
  it('sends token, app-type and x-request-origin on every call, and a key on mutations only', async () => {
    const { client, requests } = setup([ok(ORG), ok(PREFS)]);
    await client.call('organizationSelf', { variant: 'pulse' });
    await client.call('updatePreferences', { body: { nav_state: 'opened' } });
    expect(requests[0].url).toBe('http://api.test/api/organizations/self');
    expect(requests[0].headers).toEqual({
      token: 'token-1',
      'app-type': 'pulse',
      'x-request-origin': 'web-app',
    });
    expect(requests[1].method).toBe('PUT');
    expect(requests[1].headers).toEqual({
      token: 'token-1',
      'app-type': 'main',
      'x-request-origin': 'web-app',
      'idempotency-key': 'key-1',
      'content-type': 'application/json',
    });
    expect(requests[1].body).toBe('{"nav_state":"opened"}');
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

  it('sends a raw path with its params, extra headers and a raw body, under the same rules', async () => {
    const { client, requests } = setup([ok({ ok: true })]);
    const response = await client.send({
      method: 'put',
      path: '/upload/{id}/part',
      params: { id: 'doc 7/a' },
      auth: true,
      headers: { 'content-type': 'application/pdf', token: 'not-this-one' },
      body: new Uint8Array([37, 80, 68, 70]),
    });
    expect(response.status).toBe(200);
    expect(requests[0].url).toBe('http://api.test/api/upload/doc%207%2Fa/part');
    expect(requests[0].headers).toEqual({
      token: 'token-1',
      'app-type': 'main',
      'x-request-origin': 'web-app',
      'idempotency-key': 'key-1',
      'content-type': 'application/pdf',
    });
    expect(requests[0].body).toBe('%PDF');
  });

  it('rejects an answer that does not match the contract, naming the field', async () => {
    const { client } = setup([ok({ ...ORG, members_count: 'many' })]);
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      code: 'bad_response',
      message:
        'GET /organizations/self answered with an unexpected shape: members_count: Invalid input: expected number, received string',
    });
  });
});

describe('api client: retries (000 §7)', () => {
  it('retries a network error twice, 300 ms apart, then succeeds', async () => {
    const { client, clock, requests } = setup([offline, offline, ok(ORG)]);
    const answer = client.call('organizationSelf');
    await clock.advance(API_RETRY_DELAY_MS);
    await clock.advance(API_RETRY_DELAY_MS);
    await expect(answer).resolves.toEqual(ORG);
    expect(requests.map((r) => r.at)).toEqual([1_000, 1_300, 1_600]);
  });

  it('gives up after 2 retries with a network ApiError (status 0)', async () => {
    const { client, clock, requests } = setup([offline, offline, offline, ok(ORG)]);
    const answer = client.call('organizationSelf');
    answer.catch(() => {});
    await clock.advance(API_RETRY_DELAY_MS);
    await clock.advance(API_RETRY_DELAY_MS);
    await expect(answer).rejects.toMatchObject({ name: 'ApiError', status: 0, code: 'network' });
    expect(requests).toHaveLength(3);
  });

  it('retries a 500 twice and rejects with the server message after that', async () => {
    const boom = fail(500, 'internal', 'database unavailable');
    const { client, clock, requests } = setup([boom, boom, boom]);
    const answer = client.call('preferences');
    answer.catch(() => {});
    await clock.advance(API_RETRY_DELAY_MS);
    await clock.advance(API_RETRY_DELAY_MS);
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
    await clock.advance(API_RETRY_DELAY_MS);
    await clock.advance(API_RETRY_DELAY_MS);
    await expect(answer).resolves.toEqual(PREFS);
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual(['key-1', 'key-1', 'key-1']);
  });

  it.each([
    [401, 'unauthorized', 'unknown token'],
    [404, 'not_found', 'no such notification'],
    [400, 'bad_request', 'ids: ids must not be empty'],
    [409, 'conflict', 'idempotency-key was already used'],
  ])('never retries a %i', async (status, error, message) => {
    const { client, clock, requests } = setup([fail(status, error, message), ok(ORG)]);
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      status,
      code: error,
      message,
    });
    expect(requests).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
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

  it('sends a one-shot stream body once: a 503 is the answer, not a retry', async () => {
    const { client, clock, requests } = setup([fail(503, 'internal', 'busy'), ok({ ok: true })]);
    const body = new Blob(['part one']).stream();
    await expect(
      client.send({ method: 'post', path: '/upload', auth: true, body }),
    ).rejects.toMatchObject({ status: 503, message: 'busy' });
    expect(requests.map((r) => r.body)).toEqual(['part one']);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('api client: no token (000 §8)', () => {
  it('broadcasts the logout and stays pending, holding no timer, until aborted', async () => {
    const { client, clock, requests, calls, clearToken } = setup([ok(ORG)]);
    clearToken();
    const controller = new AbortController();
    const answer = client.call('organizationSelf', { signal: controller.signal });
    expect(calls.missing).toBe(1);
    expect(requests).toHaveLength(0);
    expect(clock.pendingTimers()).toBe(0);
    // Nothing but the abort settles it.
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
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

describe('api client: abort without a server', () => {
  it('rejects at once when the signal has already aborted, sending nothing', async () => {
    const { client, requests } = setup([ok(ORG)]);
    await expect(
      client.call('organizationSelf', { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: 'AbortError',
      message: 'GET /organizations/self was cancelled',
    });
    expect(requests).toHaveLength(0);
  });

  it('cancels the wait for a retry: no timer left and no second request', async () => {
    const { client, clock, requests } = setup([offline, ok(ORG)]);
    const controller = new AbortController();
    const answer = client.call('organizationSelf', { signal: controller.signal });
    await expect.poll(() => clock.pendingTimers()).toBe(1);
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pendingTimers()).toBe(0);
    expect(requests).toHaveLength(1);
  });
});
