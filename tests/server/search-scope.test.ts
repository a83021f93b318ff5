import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draft } from './boards-fixture';
import { addDocs, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';
import { usePrivateFeedServer } from './private-feed-server';
import { followSearchFixture, search, titlesOf, writeSearchFixture } from './search-api-fixture';

const privateFeedUrl = usePrivateFeedServer();

const PRIVATE_TITLE = 'Harbour memo on zanzibarite reserves';

describe.each(STORAGES)('search scope on %s', (storage) => {
  let h: Harness;
  /** Owns a private source holding one document. */
  let owner: { token: string; source: { source_id: string; key: string } };
  /** Follows the same public sources, and nothing private. */
  let other: { token: string };
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeSearchFixture(h);
    // Public, followed by nobody: only the web search finds it.
    await addDocs(h, 'demo_tech_ledger', [
      news('t1', 'Quantum chip maker raises funds', 'A zanzibarite-free substrate.', 4),
    ]);
    const a = await newUser(h, 'Ada Owner');
    await followSearchFixture(h, a.token);
    const connected = await h.call('POST', '/connect/rss', {
      token: a.token,
      body: { url: privateFeedUrl() },
    });
    expect(connected.status).toBe(201);
    owner = { token: a.token, source: connected.body };
    await addDocs(h, owner.source.source_id, [
      news('p1', PRIVATE_TITLE, 'Confidential: the zanzibarite reserves and the repo rate.', 2),
    ]);
    other = await newUser(h, 'Bob Other');
    await followSearchFixture(h, other.token);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("never finds another user's private document, by any query or search type", async () => {
    const bodies = [
      { q: 'zanzibarite' },
      { q: 'zanzibarite', search_type: 'needl_web' },
      { q: 'zanzibarite', search_type: 'shared_data' },
      { q: 'zanzibarite', board_id: 'home' },
      { q: '"zanzibarite reserves"' },
      { q: 'confidential OR zanzibarite OR harbour' },
      { q: '-nothingatall', search_type: 'needl_web', num_docs: 100 },
      { q: '', num_docs: 100 },
      { q: '', num_docs: 100, search_type: 'needl_web' },
      { q: 'zanzibarite', spell_correct: true },
    ];
    for (const body of bodies) {
      const res = await search(h, other.token, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(titlesOf(res), JSON.stringify(body)).not.toContain(PRIVATE_TITLE);
    }
    const tabs = await search(h, other.token, { type: 'category', num_docs: 0, q: 'confidential' });
    expect(tabs.body.count).toBe(0);
    for (const key of [owner.source.key, owner.source.source_id]) {
      const res = await search(h, other.token, { q: 'zanzibarite' }, `/search/${key}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`no such source: ${key}`);
    }
    const tags = await h.call('POST', '/search/tags', {
      token: other.token,
      body: { q: 'confidential' },
    });
    expect(tags.body.facets.tags).toEqual([]);
    // The owner finds it in their own data, and by its source.
    expect(titlesOf(await search(h, owner.token, { q: 'zanzibarite' }))).toEqual([PRIVATE_TITLE]);
    expect(
      titlesOf(await search(h, owner.token, { q: 'zanzibarite' }, `/search/${owner.source.key}`)),
    ).toEqual([PRIVATE_TITLE]);
  });

  it('never corrects spelling to a word only documents out of scope hold', async () => {
    // "zanzibarite" is in the owner's private memo and in a public story nobody follows.
    // ("zanzibarit" would need no correction: it is the stem of "zanzibarite".)
    const corrected = async (token: string, extra: object = {}) =>
      (await search(h, token, { q: 'zanzibrite', spell_correct: true, ...extra })).body.query_params
        .corrected_q;
    expect(await corrected(other.token)).toBeNull();
    expect(await corrected(other.token, { search_type: 'needl_web' })).toBe('zanzibarite');
    expect(await corrected(owner.token)).toBe('zanzibarite');
    // "confidential" is in the private memo alone.
    const probe = await search(h, other.token, {
      q: 'Confidentail',
      spell_correct: true,
      search_type: 'needl_web',
    });
    expect(probe.body.query_params.corrected_q).toBeNull();
    expect(probe.body.results).toEqual([]);
  });

  it('searches the public corpus only with search_type needl_web', async () => {
    // Not followed: absent from "My Data", present in the web search.
    expect(titlesOf(await search(h, other.token, { q: 'quantum' }))).toEqual([]);
    const web = await search(h, owner.token, { q: 'zanzibarite', search_type: 'needl_web' });
    expect(titlesOf(web)).toEqual(['Quantum chip maker raises funds']);
    const all = await search(h, owner.token, { search_type: 'needl_web', num_docs: 0 });
    expect(all.body.count).toBe(10);
  });

  it("searches one of the user's feeds with board_id, and no one else's", async () => {
    const board = await h.call('POST', '/boards/v2', {
      token: owner.token,
      body: draft('Deccan', ['Deccan']),
    });
    expect(board.status).toBe(201);
    const id = board.body.board_id;
    expect(titlesOf(await search(h, owner.token, { board_id: id, sort: 'latest' }))).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      'Deccan Bank Q3 profit rises 12%',
    ]);
    expect(titlesOf(await search(h, owner.token, { board_id: id, q: 'profit' }))).toEqual([
      'Deccan Bank Q3 profit rises 12%',
    ]);
    // The home feed: what the user follows (their private source too).
    const home = await search(h, owner.token, { board_id: 'home', num_docs: 0 });
    expect(home.body.count).toBe(10);
    const theirs = await search(h, other.token, { board_id: id });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(`no such feed: ${id}`);
  });

  it('searches one source with /search/{source}', async () => {
    const india = await search(h, other.token, { sort: 'latest' }, '/search/demo_india_filings');
    expect(titlesOf(india)).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      'Aravalli Steel Industries Ltd - Credit Rating',
    ]);
    // A public source the user does not follow may still be searched on its own.
    expect(titlesOf(await search(h, other.token, {}, '/search/demo_tech_ledger'))).toEqual([
      'Quantum chip maker raises funds',
    ]);
    const unknown = await search(h, other.token, {}, '/search/no_such_source');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('no such source: no_such_source');
  });

  it("searches the user's groups with channel_id or shared_data: none exist yet", async () => {
    for (const body of [{ channel_id: 'c1' }, { search_type: 'shared_data' }]) {
      const res = await search(h, owner.token, { ...body, type: 'category', num_docs: 0 });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(0);
      expect(res.body.results).toEqual([]);
    }
  });

  it('answers 401 without a token', async () => {
    for (const path of ['/search', '/search/tags', '/search/exchanges', '/search/demo_research']) {
      const res = await h.call('POST', path, { body: {} });
      expect(res.status, path).toBe(401);
    }
  });
});
