import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../worker/deps';
import { createManualClock, settle } from '../../worker/testing';
import { createFaultyFetch, newUser, serverView, setupWorkspaceSuite } from './support';

/**
 * Offline as a state of its own (issue 18): the worker decides whether the server is reachable
 * and tells every tab; while it is not, GET /health is probed every 500 ms, and the first
 * answer drains the outbox and reconnects the live stream at once. A manual clock stands for
 * time, so "at once" is exact: the write lands at the probe that first reaches the server.
 */
const suite = setupWorkspaceSuite({ ingest: false });

function setup(options: { live?: boolean } = {}) {
  const clock = createManualClock();
  const net = createFaultyFetch();
  /** Every request the worker tried, reached or not: "METHOD /path @ms". */
  const tried: string[] = [];
  const fetch: FetchLike = (url, init) => {
    tried.push(`${init.method} ${new URL(url).pathname} @${clock.now()}`);
    return net.fetch(url, init);
  };
  const ws = suite.workspace({ fetch, clock, live: options.live ?? false });
  const probes = () => tried.filter((t) => t.startsWith('GET /api/health'));
  return { clock, net, ws, tried, probes };
}

describe('offline', () => {
  it('tells every tab, probes every half second, and drains the outbox at the first answer', async () => {
    const { clock, net, ws, tried, probes } = setup();
    const a = await ws.tab('a');
    const b = await ws.tab('b');
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await ws.workspace.idle();
    expect(a.events.some((e) => e.type === 'online')).toBe(false);

    net.state.offline = true;
    const answer = a.api.call('preferences.update', { nav_state: 'closed' });
    // The failed request is checked with a probe at once; the probe fails too: offline.
    await a.waitFor((e) => e.type === 'online' && !e.online);
    await b.waitFor((e) => e.type === 'online' && !e.online);
    expect(probes()).toEqual(['GET /api/health @0']);
    await clock.advance(600);
    // Optimistic: the change shows while it waits.
    expect(await answer).toEqual({ nav_state: 'closed', overlay_widths: {} });
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 1);

    // A tab opened now hears the state (and what waits) at once.
    const c = await ws.tab('c');
    await c.waitFor((e) => e.type === 'online' && !e.online);
    await c.waitFor((e) => e.type === 'outbox' && e.pending === 1);

    await clock.advance(3_000);
    expect(probes()).toEqual([
      'GET /api/health @0',
      'GET /api/health @500',
      'GET /api/health @1000',
      'GET /api/health @1500',
      'GET /api/health @2000',
      'GET /api/health @2500',
      'GET /api/health @3000',
      'GET /api/health @3500',
    ]);

    // The server is back: the next probe (at 4 s) reaches it, and the write goes then, not
    // at the entry's backoff (5 s after its failure, at 5.6 s).
    net.state.offline = false;
    const since = a.events.length;
    // To the next probe's moment; the clock then stands while the real server answers.
    await clock.advance(400);
    await a.waitFor((e) => e.type === 'online' && e.online, { since });
    await b.waitFor((e) => e.type === 'online' && e.online, { since: 0 });
    await a.waitFor((e) => e.type === 'outbox' && e.pending === 0, { since });
    expect(tried.filter((t) => t.startsWith('PUT'))).toEqual([
      'PUT /api/user/preferences @0',
      'PUT /api/user/preferences @300',
      'PUT /api/user/preferences @600',
      'PUT /api/user/preferences @4000',
    ]);
    const view = await serverView(suite.env.baseUrl, user.email, user.password);
    expect(await view.get('/user/preferences')).toEqual({
      nav_state: 'closed',
      overlay_widths: {},
    });

    // Online again: no more probes.
    const count = probes().length;
    await clock.advance(5_000);
    expect(probes().length).toBe(count);
  });

  it('does not call one lost request offline when the server answers the probe', async () => {
    const { clock, net, ws, probes } = setup();
    const a = await ws.tab('a');
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    let lose = 1;
    net.state.rule = (url, init) =>
      init.method === 'PUT' && url.endsWith('/user/preferences') && lose-- > 0 ? 'offline' : null;
    const answer = a.api.call('preferences.update', { nav_state: 'closed' });
    // The attempt failed (and was checked with a probe); the client retries 300 ms later.
    await waitUntil(() => probes().length === 1);
    await clock.advance(300);
    await answer;
    await ws.workspace.idle();
    expect(probes()).toEqual(['GET /api/health @0']);
    expect(a.events.filter((e) => e.type === 'online')).toEqual([]);
  });

  it('probes every 30 s while no tab is visible, and at once when one becomes visible', async () => {
    const { clock, net, ws, probes } = setup();
    const a = await ws.tab('a', { visible: false });
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    net.state.offline = true;
    void a.api.call('preferences.update', { nav_state: 'closed' });
    await a.waitFor((e) => e.type === 'online' && !e.online);
    await clock.advance(60_000);
    expect(probes()).toEqual([
      'GET /api/health @0',
      'GET /api/health @30000',
      'GET /api/health @60000',
    ]);
    await clock.advance(1_000);
    await a.api.call('tab.visibility', { visible: true });
    await settle();
    expect(probes().slice(3)).toEqual(['GET /api/health @61000']);
  });

  it('reconnects the live stream at the probe that first reaches the server', async () => {
    const { clock, net, ws, tried, probes } = setup({ live: true });
    // Hidden: no live connection yet.
    const a = await ws.tab('a', { visible: false });
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    const lives = () => tried.filter((t) => t.startsWith('GET /api/sync/live'));
    expect(lives()).toEqual([]);

    net.state.offline = true;
    await a.api.call('tab.visibility', { visible: true });
    await a.waitFor((e) => e.type === 'online' && !e.online);
    // Twenty seconds down: the stream's own wait between attempts has grown to 8 s.
    await clock.advance(20_000);
    expect(lives().map((t) => t.split(' @')[1])).toEqual([
      '0',
      '300',
      '600',
      '1600',
      '1900',
      '2200',
      '4200',
      '4500',
      '4800',
      '8800',
      '9100',
      '9400',
      '17400',
      '17700',
      '18000',
    ]);

    net.state.offline = false;
    const since = a.events.length;
    const before = lives().length;
    const probed = probes().length;
    await clock.advance(1_000);
    await a.waitFor((e) => e.type === 'online' && e.online, { since });
    await waitUntil(() => lives().length > before);
    const back = probes()[probed];
    expect(back).toBeDefined();
    // The stream was asked for at the very moment the probe answered (not at its 16 s wait).
    expect(lives()[before].split(' @')[1]).toBe(back.split(' @')[1]);
  });
});

describe('a feed read offline', () => {
  it("counts the mirror's documents on the tabs when the server's counts were never kept", async () => {
    const net = createFaultyFetch();
    const ws = suite.workspace({ fetch: net.fetch });
    const tab = await ws.tab();
    const user = newUser();
    await tab.api.call('auth.signUp', user);
    await tab.api.call('sources.followMany', { keys: ['demo_markets_wire'] });
    const first = await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 50,
    });
    await ws.workspace.idle();
    const view = await serverView(suite.env.baseUrl, user.email, user.password);
    const server = (await view.get('/boards/home/metadata')) as {
      category_tabs: Array<{ key: string; data: number }>;
    };
    const expected = server.category_tabs.filter((t) => t.data > 0);
    expect(expected.length).toBeGreaterThan(0);

    // The tabs were never asked for online; offline they are the mirror's counts, not none.
    net.state.offline = true;
    const tabs = await tab.api.call('feed.tabs', { board: 'home', source: null });
    expect(tabs.map((t) => [t.key, t.data])).toEqual(expected.map((t) => [t.key, t.data]));
    expect(tabs.reduce((sum, t) => sum + t.data, 0)).toBe(first.total);
  });

  it("shows one source's view from the mirror, newest first, when the server cannot answer it", async () => {
    const net = createFaultyFetch();
    const ws = suite.workspace({ fetch: net.fetch });
    const tab = await ws.tab();
    const user = newUser();
    await tab.api.call('auth.signUp', user);
    await tab.api.call('sources.followMany', { keys: ['demo_markets_wire', 'demo_us_filings'] });
    const window = (source: string) =>
      tab.api.call('feed.window', {
        board: 'home',
        source,
        tab: null,
        sort: 'latest',
        offset: 0,
        count: 50,
      });
    await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 200,
    });
    const online = await window('demo_markets_wire');
    await ws.workspace.idle();
    expect(online.rows.length).toBeGreaterThan(1);

    // The source's view is the server's page online; offline it was an error (issue 18's
    // journey: a source's page reloaded with the server down).
    net.state.offline = true;
    const offline = await window('demo_markets_wire');
    expect(offline.rows.map((r) => r.doc_id)).toEqual(online.rows.map((r) => r.doc_id));
    expect(new Set(offline.rows.map((r) => r.source))).toEqual(new Set(['demo_markets_wire']));
    expect(offline.total).toBe(online.total);
  });
});

/** Real time: waits for a condition the worker reaches over real network round trips. */
async function waitUntil(condition: () => boolean, timeoutMs = 5_000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('waitUntil: the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
