import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYWORD_MESSAGES } from '../../contract/boards';
import { draft, followFixture, writeFixture } from './boards-fixture';
import { addDocs, changesOf, feedTitles, news, newUser, unfollow } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

describe.each(STORAGES)('custom feeds on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFixture(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const create = (token: string, body: unknown) => h.call('POST', '/boards/v2', { token, body });

  it('refuses an invalid definition with a 400 naming the problem', async () => {
    const { token } = await newUser(h);
    const cases: Array<[unknown, string]> = [
      [
        draft('Rates', ['(repo OR rate']),
        `definition.keywords.include.0: ${KEYWORD_MESSAGES.parentheses}`,
      ],
      [
        draft('Rates', ['repo', 'rate AND']),
        `definition.keywords.include.1: ${KEYWORD_MESSAGES.operatorsAtEnds}`,
      ],
      [
        draft('Rates', [], ['"repo rate']),
        `definition.keywords.exclude.0: ${KEYWORD_MESSAGES.quotes}`,
      ],
      [
        draft('Rates', ['repo'], ['REPO']),
        'definition.keywords: "repo" cannot be both an include and an exclude keyword',
      ],
      [draft('  ', ['repo']), 'board_name: board_name must not be empty'],
      [
        draft('Rates', ['repo'], [], {
          filters: { filter: [{ name: 'colour', values: ['red'] }], exclusion_filter: [] },
        }),
        'definition.filters.filter.0.name: unknown filter "colour": one of source, company, category, secondary_category, tab, market',
      ],
      [
        draft('Rates', ['repo'], [], { sources: ['no_such_source'] }),
        'definition.sources: no such source: no_such_source',
      ],
      [
        draft('Rates', ['repo'], [], {
          date_range: { durationOption: null, startDate: '31-02-2025', endDate: null },
        }),
        'definition.date_range.startDate: dates are real calendar days',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await create(token, body);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await h.call('GET', '/boards/v2?hidden=true', { token })).body.results).toEqual([]);
  });

  it('builds a feed from its keywords over what the user follows', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const res = await create(
      token,
      draft('Rates', ['"repo rate" OR inflation', 'inflation'], ['Fed']),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      board_name: 'Rates',
      description: '',
      kind: 'custom',
      enabled: true,
      hidden: false,
      isNew: true,
      version: 1,
    });
    // Duplicates are kept once.
    expect(res.body.definition.keywords.include).toEqual([
      { keyword: '"repo rate" OR inflation', valid: true },
      { keyword: 'inflation', valid: true },
    ]);
    expect(await feedTitles(h, token, res.body.board_id)).toEqual([
      'RBI holds repo rate at 6.50%',
      'India retail inflation eases to 4.3%',
    ]);
    const changes = await changesOf(h, token);
    expect(changes.slice(-2).map((c) => `${c.entity}:${c.entity_id}`)).toEqual([
      `board:${res.body.board_id}`,
      `feed:${res.body.board_id}`,
    ]);
    const listed = (await h.call('GET', '/boards/v2', { token })).body.results;
    expect(listed.map((b: { board_name: string }) => b.board_name)).toEqual(['Rates']);
  });

  it('keeps a feed current as documents arrive, and as sources are followed and unfollowed', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const board = (await create(token, draft('Deccan', ['Deccan']))).body;
    expect(await feedTitles(h, token, board.board_id)).toEqual([
      'Deccan Bank Q3 profit rises 12%',
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
    ]);
    const cursor = (await changesOf(h, token)).at(-1)!.seq;
    await addDocs(h, 'demo_markets_wire', [
      news('d-new', 'Deccan Bank raises deposit rates', 'Retail term deposits.', 0.5),
      news('other-new', 'Crude rises 2%', 'OPEC+ cuts.', 0.5),
    ]);
    expect((await feedTitles(h, token, board.board_id))[0]).toBe(
      'Deccan Bank raises deposit rates',
    );
    const feedChanges = (await changesOf(h, token, cursor)).filter((c) => c.entity === 'feed');
    expect(feedChanges.map((c) => c.entity_id).sort()).toEqual([board.board_id, 'home'].sort());

    await unfollow(h, token, 'demo_markets_wire');
    expect(await feedTitles(h, token, board.board_id)).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
    ]);
    await h.call('POST', '/connect/public', { token, body: { key: 'demo_markets_wire' } });
    expect(await feedTitles(h, token, board.board_id)).toHaveLength(3);
  });

  it('rebuilds a feed under a new version when its definition is edited', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const board = (await create(token, draft('Rates', ['inflation']))).body;
    const edit = (body: unknown) => h.call('PUT', `/boards/${board.board_id}`, { token, body });
    const renamed = await edit({ ...draft('Prices', ['inflation']), description: 'CPI and WPI' });
    expect(renamed.body).toMatchObject({
      board_name: 'Prices',
      description: 'CPI and WPI',
      version: 1,
    });
    const edited = await edit(draft('Prices', ['Northwind OR Aravalli']));
    expect(edited.body.version).toBe(2);
    const page = await h.call('GET', `/boards/${board.board_id}/v2`, { token });
    expect(page.body.results.version).toBe(2);
    expect(page.body.results.documents.map((d: { title: string }) => d.title)).toEqual([
      'Aravalli Steel Industries Ltd - Credit Rating',
      '10-K - Northwind Semiconductor Inc (0001532047) (Filer)',
    ]);
    const boardChange = (await changesOf(h, token)).filter((c) => c.entity === 'board').at(-1)!;
    expect(boardChange.data).toMatchObject({ board_id: board.board_id, version: 2 });
    const bad = await edit(draft('Prices', ['NOT']));
    expect(bad.body.message).toBe(
      `definition.keywords.include.0: ${KEYWORD_MESSAGES.operatorsAtEnds}`,
    );
  });

  it('hides a disabled feed unless hidden=true, and duplicates one', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const board = (await create(token, draft('Steel', ['steel']))).body;
    const off = await h.call('PUT', `/boards/enable/${board.board_id}`, {
      token,
      body: { enabled: false },
    });
    expect(off.body).toMatchObject({ enabled: false, hidden: true });
    expect((await h.call('GET', '/boards/v2', { token })).body.results).toEqual([]);
    const all = (await h.call('GET', '/boards/v2?hidden=true', { token })).body.results;
    expect(
      all.map((b: { board_name: string; hidden: boolean }) => [b.board_name, b.hidden]),
    ).toEqual([['Steel', true]]);
    const copy = await h.call('POST', `/boards/${board.board_id}/duplicate`, { token, body: {} });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ board_name: 'Steel (copy)', enabled: true, version: 1 });
    expect(await feedTitles(h, token, copy.body.board_id)).toEqual([
      'Aravalli Steel Industries Ltd - Credit Rating',
    ]);
    const named = await h.call('POST', `/boards/${board.board_id}/duplicate`, {
      token,
      body: { board_name: 'Metals' },
    });
    expect(named.body.board_name).toBe('Metals');
  });

  it("answers 404 for every call on another user's feed", async () => {
    const owner = await newUser(h);
    const other = await newUser(h);
    await followFixture(h, owner.token);
    const { board_id: id } = (await create(owner.token, draft('Private', ['Deccan']))).body;
    const token = other.token;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/boards/${id}`],
      ['GET', `/boards/${id}/v2`],
      ['GET', `/boards/${id}/metadata`],
      ['GET', `/boards/${id}/sources`],
      ['GET', `/boards/${id}/channels`],
      ['GET', `/boards/${id}/suggestions`],
      ['PUT', `/boards/${id}`, draft('Mine now', ['x'])],
      ['PUT', `/boards/enable/${id}`, { enabled: false }],
      ['POST', `/boards/${id}/duplicate`, {}],
      ['POST', `/boards/${id}/preview`, { definition: draft('x', ['x']).definition }],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe(`no such feed: ${id}`);
    }
    expect((await h.call('GET', '/boards/v2?hidden=true', { token })).body.results).toEqual([]);
    expect((await h.call('GET', `/boards/${id}`, { token: owner.token })).body.board_name).toBe(
      'Private',
    );
  });

  it('lists the sources a feed reads and no groups yet', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const board = (
      await create(
        token,
        draft('Filings', ['Deccan'], [], { sources: ['demo_india_filings', 'sec'] }),
      )
    ).body;
    const sources = await h.call('GET', `/boards/${board.board_id}/sources`, { token });
    // sec is named but not followed: a feed reads its sources ∩ what the user follows.
    expect(sources.body.results.map((s: { key: string }) => s.key)).toEqual(['demo_india_filings']);
    expect(await feedTitles(h, token, board.board_id)).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
    ]);
    expect((await h.call('GET', `/boards/${board.board_id}/channels`, { token })).body).toEqual({
      results: [],
    });
    const home = await h.call('GET', '/boards/home', { token });
    expect(home.body).toMatchObject({ board_id: 'home', board_name: 'My Data', version: 0 });
  });
});
