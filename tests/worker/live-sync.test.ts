import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../worker/api-client';
import { createLiveSync } from '../../worker/live';
import type { FetchLike } from '../../worker/deps';
import { createManualClock } from '../../worker/testing';

/**
 * The live connection's timing, on a manual clock: retried 1 s after a failure, doubling to
 * 30 s, or after the server's Retry-After; the change feed pulled every 15 s while it is down,
 * and on every event while it is up.
 */
function setup(reply: () => Response | 'offline') {
  const clock = createManualClock();
  const requests: Array<{ url: string; at: number }> = [];
  const fetch: FetchLike = async (url) => {
    requests.push({ url, at: clock.now() });
    const answer = reply();
    if (answer === 'offline') throw new TypeError('fetch failed');
    return answer;
  };
  const client = createApiClient({
    fetch,
    clock,
    baseUrl: 'http://api.test/api',
    product: 'needl',
    randomId: () => 'id',
    auth: {
      token: () => 'token',
      refresh: () => Promise.reject(new Error('no refresh here')),
      missing: () => {},
      unauthorized: () => {},
    },
  });
  const pulls: number[] = [];
  const live = createLiveSync({
    client,
    clock,
    pull: async () => void pulls.push(clock.now()),
    signal: () => new AbortController().signal,
    track: (work) => void work.catch(() => {}),
    warn: () => {},
  });
  const attempts = () => requests.filter((r) => r.url.endsWith('/sync/live')).map((r) => r.at);
  return { clock, live, pulls, attempts };
}

describe('the live connection', () => {
  it('retries with a doubling wait and pulls every 15 s while it is down', async () => {
    const { clock, live, pulls, attempts } = setup(() => new Response('down', { status: 503 }));
    live.update(true);
    await clock.advance(31_000);
    // Each attempt is the client's call with its two retries 300 ms apart, then the wait.
    expect(attempts()).toEqual([
      0, 300, 600, 1600, 1900, 2200, 4200, 4500, 4800, 8800, 9100, 9400, 17400, 17700, 18000,
    ]);
    expect(pulls).toEqual([15_600, 30_600]);
    expect(live.connected()).toBe(false);

    live.update(false);
    const before = attempts().length;
    await clock.advance(60_000);
    expect(attempts().length).toBe(before);
    expect(pulls).toEqual([15_600, 30_600]);
  });

  it('pulls on every event of the stream and connects again when it ends', async () => {
    let up = false;
    const events = 'data: {"cursor":4}\n\n: heartbeat\n\ndata: {"cursor":5}\n\n';
    const { clock, live, pulls, attempts } = setup(() =>
      up ? new Response(events, { headers: { 'content-type': 'text/event-stream' } }) : 'offline',
    );
    live.update(true);
    await clock.advance(700);
    expect(attempts()).toEqual([0, 300, 600]);
    up = true;
    // The next attempt (1 s after the failure) gets two events and a heartbeat, then the end.
    await clock.advance(1_000);
    expect(attempts()).toEqual([0, 300, 600, 1600]);
    expect(pulls).toEqual([1600, 1600]);
    // An event came: the next attempt waits 1 s again.
    await clock.advance(1_000);
    expect(attempts()).toEqual([0, 300, 600, 1600, 2600]);
    live.stop();
  });

  it("waits as long as the server's Retry-After when it refuses the connection", async () => {
    const refusal = JSON.stringify({
      error: 'rate_limited',
      message: 'too many live connections: 8 are open for this account; close some tabs or devices',
    });
    const { clock, live, attempts } = setup(
      () => new Response(refusal, { status: 429, headers: { 'retry-after': '30' } }),
    );
    live.update(true);
    // A 429 is not retried by the client, and the next attempt comes 30 s later, not 1 s.
    await clock.advance(29_999);
    expect(attempts()).toEqual([0]);
    await clock.advance(1);
    expect(attempts()).toEqual([0, 30_000]);
    live.stop();
  });
});
