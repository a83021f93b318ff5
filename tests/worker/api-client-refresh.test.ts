import { describe, expect, it } from 'vitest';
import { ApiError } from '../../worker/api-client';
import { fail, logsOf, ok, ORG, setup, to } from './api-client-support';

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
    expect(calls.refresh).toEqual(['token-1', 'token-2']);
    expect(requests.filter(to('/organizations/self')).map((r) => r.headers.token)).toEqual([
      'token-1',
      'token-2',
      'token-3',
    ]);
    // The log leaves before the call rejects, with the token the server refused last.
    const logs = logsOf(requests, 'forbidden_after_refresh');
    expect(logs).toHaveLength(1);
    expect(logs[0].headers.token).toBe('token-3');
    expect(JSON.parse(logs[0].body ?? '{}')).toEqual({
      logData: {
        event: 'forbidden_after_refresh',
        call: 'GET /organizations/self',
        message: 'not allowed',
      },
    });
  });

  it('rejects with the refresh failure and leaves its log to the session', async () => {
    const refreshFailure = new ApiError(401, 'unauthorized', 'refresh token revoked');
    const { client, requests } = setup([fail(403, 'token_expired', 'expired'), ok({ ok: true })], {
      refresh: () => Promise.reject(refreshFailure),
    });
    await expect(client.call('organizationSelf')).rejects.toBe(refreshFailure);
    // One request, no retry and no log of its own: the session logs a failed refresh, once.
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/organizations/self']);
  });
});

describe('api client: a token known to be expired', () => {
  it('is refreshed before the call instead of after a 403', async () => {
    const { client, requests, calls } = setup([ok(ORG)], { expired: (t) => t === 'token-1' });
    await expect(client.call('organizationSelf')).resolves.toEqual(ORG);
    expect(calls.refresh).toEqual(['token-1']);
    expect(requests.map((r) => r.headers.token)).toEqual(['token-2']);
  });

  it('counts that refresh toward the limit of 2: always 403 means 2 refreshes, then rejection', async () => {
    const forbidden = fail(403, 'forbidden', 'not allowed');
    const { client, requests, calls } = setup([forbidden, forbidden, forbidden, ok({ ok: true })], {
      expired: () => true,
    });
    await expect(client.call('organizationSelf')).rejects.toMatchObject({
      status: 403,
      message: 'not allowed',
    });
    expect(calls.refresh).toEqual(['token-1', 'token-2']);
    expect(requests.filter(to('/organizations/self')).map((r) => r.headers.token)).toEqual([
      'token-2',
      'token-3',
    ]);
    expect(logsOf(requests, 'forbidden_after_refresh')).toHaveLength(1);
  });
});
