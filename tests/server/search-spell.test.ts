import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/tx';
import { reserveSeqs } from '../../server/documents/sequence';
import { engineFor } from '../../server/search/engines';
import { searchScope, type ScopeRequest } from '../../server/search/scope';
import { scopedVocabularies } from '../../server/search/spell';
import { addDocs, news, newUser, T0 } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';
import { usePrivateFeedServer } from './private-feed-server';
import {
  followSearchFixture,
  search,
  titlesOf,
  useSearchFixture,
  writeSearchFixture,
} from './search-api-fixture';

/** Spelling correction from the index's own vocabulary (issue 7 §2). */
describe.each(STORAGES)('search spelling on %s', (storage) => {
  const fixture = useSearchFixture(storage);
  let h: Harness;
  let token: string;
  beforeAll(() => {
    h = fixture.h();
    token = fixture.token();
  });

  it('corrects a misspelt word to the word the index holds, and searches that', async () => {
    const res = await search(h, token, { q: 'inflaton', spell_correct: true, sort: 'latest' });
    expect(res.status).toBe(200);
    expect(res.body.query_params).toMatchObject({
      q: 'inflaton',
      corrected_q: 'inflation',
      searched_q: 'inflation',
    });
    expect(res.body.count).toBe(4);
    expect(titlesOf(res)).toEqual([
      'RBI holds repo rate at 6.50%',
      'Fed leaves rates unchanged',
      'Rate cycle outlook',
      'India retail inflation eases to 4.3%',
    ]);
    expect(res.body.results[0].highlights).toEqual([
      'The Monetary Policy Committee voted to hold the repo rate. <em>Inflation</em> remains near target.',
    ]);
  });

  it('keeps operators, quotes and capitals, correcting only the misspelt words', async () => {
    const res = await search(h, token, {
      q: 'Inflaton AND "repo rat"',
      spell_correct: true,
      sort: 'latest',
    });
    expect(res.body.query_params).toMatchObject({
      corrected_q: 'Inflation AND "repo rate"',
      searched_q: 'Inflation AND "repo rate"',
    });
    expect(titlesOf(res)).toEqual(['RBI holds repo rate at 6.50%', 'Rate cycle outlook']);
    // A long word may be two edits away.
    const two = await search(h, token, { q: 'semicondutcr', spell_correct: true });
    expect(two.body.query_params.corrected_q).toBe('semiconductor');
    expect(titlesOf(two)).toEqual(['10-K - Northwind Semiconductor Inc (0001532047) (Filer)']);
  });

  it('corrects nothing without spell_correct', async () => {
    const res = await search(h, token, { q: 'inflaton' });
    expect(res.body.query_params).toMatchObject({
      q: 'inflaton',
      corrected_q: null,
      searched_q: 'inflaton',
    });
    expect(res.body).toMatchObject({ count: 0, results: [] });
  });

  it('leaves a word the index holds as it is', async () => {
    for (const q of ['crude', 'Crude oil', 'rates', '"repo rate"']) {
      const res = await search(h, token, { q, spell_correct: true });
      expect(res.body.query_params.corrected_q, q).toBeNull();
      expect(res.body.query_params.searched_q, q).toBe(q);
      expect(res.body.count, q).toBeGreaterThan(0);
    }
    // A word no document holds and with no near neighbour stays too.
    const odd = await search(h, token, { q: 'xylophone', spell_correct: true });
    expect(odd.body.query_params.corrected_q).toBeNull();
    expect(odd.body.count).toBe(0);
  });
});

/**
 * Spelling from what the user may see beyond the public corpus (issue 16 item 7): their
 * private sources' words and their own documents', never another user's.
 */
describe.each(STORAGES)("search spelling from the user's own data on %s", (storage) => {
  const privateFeedUrl = usePrivateFeedServer();
  let h: Harness;
  /** Follows a private feed about Borealis Minerals. */
  let ada: { token: string; userId: string };
  let adaSource: { source_id: string; key: string };
  /** Follows the public fixture only, and owns a document of his own. */
  let bob: { token: string; userId: string };
  let bobsDocument: { id: string; seq: number };
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeSearchFixture(h);
    ada = await newUser(h, 'Ada Owner');
    await followSearchFixture(h, ada.token);
    const connected = await h.call('POST', '/connect/rss', {
      token: ada.token,
      body: { url: privateFeedUrl() },
    });
    expect(connected.status).toBe(201);
    adaSource = connected.body;
    await addDocs(h, adaSource.source_id, [
      news(
        'b1',
        'Borealis Minerals lifts copper guidance',
        'Borealis Minerals expects more from its northern pits.',
        2,
      ),
      news('b2', 'Borealis Minerals board approves buyback', 'The minerals group buys back.', 3),
      news('b3', 'Copper producers rally', 'Borealis Minerals led the rally.', 4),
    ]);
    bob = await newUser(h, 'Bob Other');
    await followSearchFixture(h, bob.token);
    // Owned by Bob in a public source (an upload's shape): only Bob may see it.
    bobsDocument = await inTransaction(h.db, async (trx) => {
      const seq = await reserveSeqs(trx, 1);
      const row = {
        id: `own-${seq}`,
        seq,
        source_id: 'demo_research',
        source_key: 'demo_research',
        dedupe_key: `own-${seq}`,
        title: 'Tantalum supply memo',
        url: null,
        unix: T0 - 3600,
        html: '<p>Tantalum stocks are thin.</p>',
        plain_text: 'Tantalum stocks are thin.',
        category_tab: 'research' as const,
        market: null,
        company_name: null,
        security_code: null,
        security_id: null,
        category: null,
        secondary_category: null,
        categories: '[]',
        thumbnail: null,
        mime_type: 'text/html',
        owner_user_id: bob.userId,
        created_at: new Date(h.clock.now).toISOString(),
      };
      await trx.insertInto('documents').values(row).execute();
      await engineFor(trx).index(trx, [row]);
      return { id: row.id, seq };
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const spell = async (token: string, q: string, extra: object = {}, path?: string) => {
    const res = await search(h, token, { q, spell_correct: true, sort: 'latest', ...extra }, path);
    expect(res.status).toBe(200);
    return res;
  };

  it("corrects to a word of the user's followed private feed", async () => {
    const res = await spell(ada.token, 'Borealis Minrals');
    expect(res.body.query_params).toMatchObject({
      q: 'Borealis Minrals',
      corrected_q: 'Borealis Minerals',
      searched_q: 'Borealis Minerals',
    });
    expect(titlesOf(res)).toEqual([
      'Borealis Minerals lifts copper guidance',
      'Borealis Minerals board approves buyback',
      'Copper producers rally',
    ]);
    // In the home feed and in the source itself too.
    expect(
      (await spell(ada.token, 'minrals', { board_id: 'home' })).body.query_params,
    ).toMatchObject({ corrected_q: 'minerals' });
    const bySource = await spell(ada.token, 'minrals', {}, `/search/${adaSource.key}`);
    expect(bySource.body.query_params.corrected_q).toBe('minerals');
    // The public corpus holds no such word.
    const web = await spell(ada.token, 'minrals', { search_type: 'needl_web' });
    expect(web.body.query_params.corrected_q).toBeNull();
  });

  it('never offers a word only another user private feed holds', async () => {
    for (const extra of [{}, { board_id: 'home' }, { search_type: 'needl_web' }]) {
      const res = await spell(bob.token, 'Borealis Minrals', extra);
      expect(res.body.query_params, JSON.stringify(extra)).toMatchObject({
        corrected_q: null,
        searched_q: 'Borealis Minrals',
      });
      expect(res.body.results).toEqual([]);
    }
  });

  it("corrects to a word of the user's own documents, never of another user's", async () => {
    const bobs = await spell(bob.token, 'tantalun');
    expect(bobs.body.query_params).toMatchObject({
      corrected_q: 'tantalum',
      searched_q: 'tantalum',
    });
    expect(titlesOf(bobs)).toEqual(['Tantalum supply memo']);
    for (const [extra, path] of [
      [{}, undefined],
      [{ search_type: 'needl_web' }, undefined],
      [{}, '/search/demo_research'],
    ] as const) {
      const res = await spell(ada.token, 'tantalun', extra, path);
      expect(res.body.query_params.corrected_q, `${JSON.stringify(extra)} ${path}`).toBeNull();
      expect(res.body.results).toEqual([]);
    }
  });

  it('still corrects public words, with private data in the scope', async () => {
    const res = await spell(ada.token, 'Inflaton');
    expect(res.body.query_params).toMatchObject({
      corrected_q: 'Inflation',
      searched_q: 'Inflation',
    });
    expect(res.body.count).toBe(4);
    expect((await spell(bob.token, 'semicondutcr')).body.query_params.corrected_q).toBe(
      'semiconductor',
    );
  });

  it("reads the user's own vocabularies only, those of the scope's private sources", async () => {
    const keysOf = async (userId: string, req: ScopeRequest = {}) =>
      scopedVocabularies(h.db, await searchScope(h.db, { userId, product: 'needl' }, req));
    const adaSrc = `src:${adaSource.source_id}`;
    expect(await keysOf(ada.userId)).toEqual([`own:${ada.userId}`, adaSrc]);
    expect(await keysOf(ada.userId, { board_id: 'home' })).toEqual([`own:${ada.userId}`, adaSrc]);
    expect(await keysOf(ada.userId, { source: adaSource.key })).toEqual([
      `own:${ada.userId}`,
      adaSrc,
    ]);
    expect(await keysOf(ada.userId, { source: 'demo_research' })).toEqual([`own:${ada.userId}`]);
    expect(await keysOf(ada.userId, { search_type: 'needl_web' })).toEqual([`own:${ada.userId}`]);
    expect(await keysOf(bob.userId)).toEqual([`own:${bob.userId}`]);
  });

  it('counts words per private source and owner, and takes them out when unindexed', async () => {
    const counts = async (term: string) =>
      (
        await h.db
          .selectFrom('search_scoped_terms')
          .select(['scope_key', 'docs'])
          .where('term', '=', term)
          .orderBy('scope_key')
          .execute()
      ).map((r) => [r.scope_key, Number(r.docs)]);
    expect(await counts('minerals')).toEqual([[`src:${adaSource.source_id}`, 3]]);
    expect(await counts('tantalum')).toEqual([[`own:${bob.userId}`, 1]]);
    // The public vocabulary holds neither.
    const pub = await h.db
      .selectFrom('search_terms')
      .select('term')
      .where('term', 'in', ['minerals', 'borealis', 'tantalum'])
      .execute();
    expect(pub).toEqual([]);
    await inTransaction(h.db, (trx) => engineFor(trx).unindex(trx, [bobsDocument]));
    expect(await counts('tantalum')).toEqual([]);
    expect(await counts('minerals')).toEqual([[`src:${adaSource.source_id}`, 3]]);
  });
});
