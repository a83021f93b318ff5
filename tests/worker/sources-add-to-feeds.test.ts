import { describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import type { WorkerEvent } from '../../contract/worker-api';
import {
  createFaultyFetch,
  createGate,
  errorResponse,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

/** Add to feeds: the picker mirrored, the choice optimistic, put back when refused. */
const suite = setupWorkspaceSuite({ ingest: false });

const sourcesChanged = (e: WorkerEvent) => e.type === 'changed' && e.store === 'sources';

async function setUp() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  await a.api.call('sources.follow', { key: 'demo_markets_wire' });
  const filings = (await a.api.call('sources.follow', { key: 'demo_india_filings' })).source;
  const make = (board_name: string) =>
    a.api.call('boards.create', {
      board_name,
      description: '',
      kind: 'custom',
      definition: { ...EMPTY_DEFINITION, sources: [filings.source_id] },
    });
  const banks = await make('Banks');
  const steel = await make('Steel');
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  return { ws, a, b, faulty, server, banks: banks.board_id, steel: steel.board_id };
}

const selection = (list: Array<{ board_name: string; selected: boolean }>) =>
  list.map((f) => [f.board_name, f.selected]);

describe('add to feeds', () => {
  it('shows the choice in every tab at once and the server keeps it', async () => {
    const { ws, a, b, faulty, server, banks } = await setUp();
    expect(selection(await b.api.call('sources.feeds', { key: 'demo_markets_wire' }))).toEqual([
      ['Banks', false],
      ['Steel', false],
    ]);
    await ws.workspace.idle();
    const gate = createGate();
    faulty.state.rule = (url) => (url.includes('/boards') ? { hold: gate.opened } : null);
    const since = b.events.length;
    const sent = a.api.call('sources.setFeeds', { key: 'demo_markets_wire', boards: [banks] });
    await b.waitFor(sourcesChanged, { since });
    // Before the server answered.
    expect(selection(await b.api.call('sources.feeds', { key: 'demo_markets_wire' }))).toEqual([
      ['Banks', true],
      ['Steel', false],
    ]);
    gate.open();
    expect(selection(await sent)).toEqual([
      ['Banks', true],
      ['Steel', false],
    ]);
    await ws.workspace.idle();
    faulty.state.rule = null;
    const kept = (await server.get('/source/public/demo_markets_wire/boards')) as {
      results: Array<{ board_name: string; selected: boolean }>;
    };
    expect(selection(kept.results)).toEqual([
      ['Banks', true],
      ['Steel', false],
    ]);
  });

  it('puts the selection back in every tab when the server refuses', async () => {
    const { ws, a, b, faulty, steel } = await setUp();
    expect(selection(await a.api.call('sources.feeds', { key: 'demo_markets_wire' }))).toEqual([
      ['Banks', false],
      ['Steel', false],
    ]);
    await ws.workspace.idle();
    faulty.state.rule = (url, init) =>
      url.includes('/source/public/demo_markets_wire/boards') && init.method === 'POST'
        ? errorResponse(400, 'bad_request', 'boards: no such feed: gone')
        : null;
    const since = b.events.length;
    await expect(
      a.api.call('sources.setFeeds', { key: 'demo_markets_wire', boards: [steel] }),
    ).rejects.toThrow('boards: no such feed: gone');
    await b.waitFor(sourcesChanged, { since });
    faulty.state.rule = () => 'offline';
    expect(selection(await b.api.call('sources.feeds', { key: 'demo_markets_wire' }))).toEqual([
      ['Banks', false],
      ['Steel', false],
    ]);
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });
});
