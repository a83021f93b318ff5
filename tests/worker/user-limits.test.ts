import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../worker/deps';
import { userMessage } from '../../src/lib/user-message';
import { newUser, setupWorkspaceSuite } from './support';

/**
 * Per-user limits seen from the worker (issue 17, item 5): many tabs of one browser never reach
 * them (the worker holds one live connection for all), and a refusal reaches the tab with the
 * server's words and its Retry-After. The limits here are the strictest that normal use allows:
 * one live connection, two follow calls an hour.
 */
const suite = setupWorkspaceSuite({
  ingest: false,
  userLimits: { liveConnections: 1, followsPerHour: 2 },
});

/** The real fetch, noting each answer's method, path and status. */
const noting = () => {
  const answers: string[] = [];
  const fetchLike: FetchLike = async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    answers.push(`${init.method} ${new URL(url).pathname} ${response.status}`);
    return response;
  };
  return { answers, fetch: fetchLike };
};

describe('per-user limits from the worker', () => {
  it('keeps one live connection for eight tabs, so a limit of one is never reached', async () => {
    const { answers, fetch } = noting();
    const ws = suite.workspace({ live: true, fetch });
    const tabs = await Promise.all(Array.from({ length: 8 }, (_, i) => ws.tab(`tab-${i}`)));
    await tabs[0].api.call('auth.signUp', newUser());
    await Promise.all(
      tabs.map((tab) =>
        tab.api.call('feed.window', {
          board: 'home',
          tab: null,
          sort: 'latest',
          offset: 0,
          count: 3,
        }),
      ),
    );
    await expect
      .poll(() => answers.filter((a) => a.startsWith('GET /api/sync/live')))
      .toEqual(['GET /api/sync/live 200']);
    expect(answers.filter((a) => a.endsWith(' 429'))).toEqual([]);
  });

  it("hands a tab the server's refusal, with its words and when to come back", async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    await tab.api.call('sources.follow', { key: 'demo_macro_monitor' });
    await tab.api.call('sources.unfollow', { key: 'demo_macro_monitor' });
    const refused = await tab.api
      .call('sources.follow', { key: 'demo_macro_monitor' })
      .then(() => null)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'too many follows; try again in 60 minutes',
      retryAfterMs: 3_600_000,
    });
    // What the follow button's toast says (src/features/sources/use-follow-actions.ts).
    expect(userMessage(refused)).toBe('too many follows; try again in 60 minutes');
  });

  it("words a 429 that carries no message of the server's (a proxy's) for the user, never as its status", async () => {
    const fetchLike: FetchLike = async (url, init) =>
      init.method === 'POST' && new URL(url).pathname.endsWith('/connect/rss')
        ? new Response('<html><body>429 Too Many Requests</body></html>', {
            status: 429,
            headers: { 'content-type': 'text/html', 'retry-after': '20' },
          })
        : fetch(url, init as RequestInit);
    const ws = suite.workspace({ fetch: fetchLike });
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    const refused = await tab.api
      .call('sources.followUrl', { url: 'https://news.example.com/feed.xml' })
      .then(() => null)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests right now. Try again in 20 seconds.',
      retryAfterMs: 20_000,
    });
    expect(userMessage(refused)).toBe('Too many requests right now. Try again in 20 seconds.');
  });
});
