import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/tx';
import { parseKeywordQuery } from '../../contract/keyword-query';
import { engineFor } from '../../server/search/engines';
import { followSource } from '../../server/sources/follow';
import { addDocs, news } from './documents-helpers';
import {
  engineQuery,
  scopeOf,
  SOURCES,
  titles,
  titleSet,
  writeEngineFixture,
  type Fixture,
} from './search-engine-fixture';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * The engine's acceptance suite, run against every storage (SQLite FTS5, PGlite, and a real
 * PostgreSQL with TEST_DATABASE_URL): the query language, edge inputs, scopes and the viewer
 * guard. Expected answers are the fixture's titles.
 */
describe.each(STORAGES)('search engine on %s', (storage) => {
  let h: Harness;
  let f: Fixture;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    f = await writeEngineFixture(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const pub = () => scopeOf(f.ada, { publicCorpus: true });
  const find = (q: string) => titleSet(h, engineQuery(q, pub()));

  it('is the engine of the dialect', () => {
    expect(engineFor(h.db).name).toBe(storage === 'sqlite' ? 'sqlite-fts5' : 'postgres');
  });

  it('finds a document as soon as insertDocuments has stored it', async () => {
    await addDocs(h, SOURCES.news, [
      news('late', 'Zeppelin sighted', 'A zeppelin flew over the harbour.', 0.5),
    ]);
    expect(await find('zeppelin')).toEqual(['Zeppelin sighted']);
  });

  it('matches whole words, any case, diacritics folded, every word of a stem alike', async () => {
    expect(await find('tesla')).toEqual(['Tesla filing delayed']);
    expect(await find('TESLA')).toEqual(['Tesla filing delayed']);
    expect(await find('tesl')).toEqual([]);
    expect(await find('cafe')).toEqual(['Café owners protest']);
    expect(await find('CAFÉ')).toEqual(['Café owners protest']);
    // "filings", "filing", "files" and "filed" are all "file".
    expect(await find('filings')).toEqual([
      '10-K - Prairie Mutual',
      'Ford files annual reports',
      'Kaveri Infotech - Annual Report',
      'Tesla filing delayed',
    ]);
    expect(await find('company')).toEqual(['Companies report earnings']);
    expect(await find('tax')).toEqual(['Tax rules tighten']);
    // "reported" too.
    expect(await find('report')).toEqual([
      '10-K - Prairie Mutual',
      'Companies report earnings',
      'Deccan Bank - Financial Results',
      'Ford files annual reports',
      'Kaveri Infotech - Annual Report',
      'Tesla filing delayed',
    ]);
  });

  it('reads AND, OR, NOT, + - |, parentheses and phrases', async () => {
    const both = ['Tesla filing delayed'];
    expect(await find('tesla delayed')).toEqual(both);
    expect(await find('tesla AND delayed')).toEqual(both);
    expect(await find('tesla +delayed')).toEqual(both);
    const either = ['Ford files annual reports', 'Tesla filing delayed'];
    expect(await find('tesla OR ford')).toEqual(either);
    expect(await find('tesla | ford')).toEqual(either);
    const without = [
      'Companies report earnings',
      'Deccan Bank - Financial Results',
      'Ford files annual reports',
    ];
    expect(await find('revenue -fell')).toEqual(without);
    expect(await find('revenue NOT fell')).toEqual(without);
    expect(await find('revenue - fell')).toEqual(without);
    expect(await find('(tesla OR ford) annual')).toEqual(either);
    expect(await find('-(tesla OR ford OR revenue)')).toEqual([
      'Café owners protest',
      'Kaveri Infotech - Annual Report',
      'Tax rules tighten',
      'Zeppelin sighted',
    ]);
    const phrase = [
      '10-K - Prairie Mutual',
      'Ford files annual reports',
      'Kaveri Infotech - Annual Report',
      'Tesla filing delayed',
    ];
    expect(await find('"annual report"')).toEqual(phrase);
    expect(await find('\u201cannual report\u201d')).toEqual(phrase);
    expect(await find('"report annual"')).toEqual([]);
    expect(await find('10-K')).toEqual(['10-K - Prairie Mutual']);
  });

  it('answers a pure negation with every document of the scope without the word', async () => {
    const noRevenue = [
      'Café owners protest',
      'Kaveri Infotech - Annual Report',
      'Tax rules tighten',
      'Tesla filing delayed',
      'Zeppelin sighted',
    ];
    expect(await find('-revenue')).toEqual(noRevenue);
    expect(await find('NOT revenue')).toEqual(noRevenue);
    expect(await find('revenue OR -annual')).toEqual([
      '10-K - Prairie Mutual',
      'Café owners protest',
      'Companies report earnings',
      'Deccan Bank - Financial Results',
      'Ford files annual reports',
      'Tax rules tighten',
      'Zeppelin sighted',
    ]);
  });

  it('never reads engine syntax out of what a user types', async () => {
    const tesla = ['Tesla filing delayed'];
    expect(await find('NEAR(taxes')).toEqual(['Tax rules tighten']);
    expect(await find('NEAR(tesla')).toEqual([]);
    expect(await find('title:tesla')).toEqual([]);
    expect(await find('{title body}: tesla')).toEqual([]);
    expect(await find('tesla*')).toEqual(tesla);
    expect(await find('tesl*')).toEqual([]);
    expect(await find('^tesla')).toEqual(tesla);
    expect(await find('\u0000tesla\u0007')).toEqual(tesla);
    expect(await find('"tesla')).toEqual(tesla);
    expect(await find('tesla AND')).toEqual(tesla);
    expect(await find(') tesla (')).toEqual(tesla);
    expect(await find('tesla" OR "xall')).toEqual(tesla);
    expect(await find('xall')).toEqual([]);
    expect(await find('facets:xall')).toEqual([]);
    expect(await find('tesla '.repeat(833))).toEqual(tesla);
    for (const q of ['*', 'AND OR NOT', '+-|()', '"', '\u0000', '!@#$%^&*:']) {
      expect(parseKeywordQuery(q).expr).toBeNull();
    }
    // Nothing thrown for any of these, whatever it finds.
    const deep = (n: number, open: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => open(i)).join(' ') + ')'.repeat(n);
    for (const q of [
      '"a" "b',
      "'''",
      'a OR OR b',
      '((((a',
      'a -',
      'NEAR(a b, 2)',
      '-*-',
      deep(70, (i) => `(w${i} OR -v${i}`),
      deep(70, (i) => `-(w${i}`),
      `tesla ${'x'.repeat(3000)}`,
      Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' | '),
    ]) {
      await expect(find(q)).resolves.toBeInstanceOf(Array);
    }
    // A word longer than any the index holds matches nothing, on every engine.
    expect(await find(`tesla ${'x'.repeat(3000)}`)).toEqual([]);
    expect(await find(`tesla OR ${'x'.repeat(3000)}`)).toEqual(tesla);
  });

  it('searches only the scope, and never another user’s private documents', async () => {
    const every = [SOURCES.news, SOURCES.india, SOURCES.us, SOURCES.ada, SOURCES.bob];
    const of = (scope: Parameters<typeof scopeOf>[1], q = 'tesla', viewer = f.ada) =>
      titleSet(h, engineQuery(q, scopeOf(viewer, scope)));
    expect(await of({ sourceIds: every })).toEqual([
      'Ada private tesla notes',
      'Tesla filing delayed',
    ]);
    expect(await of({ publicCorpus: true, ownedBy: f.ada })).toEqual([
      'Ada private tesla notes',
      'Tesla filing delayed',
    ]);
    expect(await of({ ownedBy: f.ada })).toEqual(['Ada private tesla notes']);
    expect(await of({ sourceIds: [SOURCES.bob] })).toEqual([]);
    expect(await of({ ownedBy: f.bob })).toEqual([]);
    expect(await of({ publicCorpus: true, ownedBy: f.bob }, 'tesla', f.bob)).toEqual([
      'Bob secret tesla memo',
      'Tesla filing delayed',
    ]);
    // Ada's home feed: the news and the Indian filings she follows.
    expect(await of({ feeds: [`home:${f.ada}`] }, 'revenue')).toEqual([
      'Companies report earnings',
      'Deccan Bank - Financial Results',
      'Ford files annual reports',
    ]);
    // Bob's feed holds his private memo: named as Ada's scope, it still shows her nothing.
    await inTransaction(h.db, (trx) => followSource(trx, f.bob, SOURCES.bob, h.clock.now));
    expect(await of({ feeds: [`home:${f.bob}`] }, 'tesla', f.bob)).toEqual([
      'Bob secret tesla memo',
    ]);
    expect(await of({ feeds: [`home:${f.bob}`] })).toEqual([]);
    expect(await of({})).toEqual([]);
    const none = await engineFor(h.db).search(h.db, engineQuery('tesla', scopeOf(f.ada, {})));
    expect(none).toEqual({ hits: [], total: 0, exact: true, tabs: null });
  });

  it('ranks title matches first and scores them', async () => {
    const answer = await engineFor(h.db).search(h.db, engineQuery('annual', pub()));
    expect(answer.hits).toHaveLength(4);
    const scores = answer.hits.map((hit) => hit.score ?? Number.NaN);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const ranked = await titles(h, engineQuery('annual', pub()));
    expect(ranked.slice(0, 2).sort()).toEqual([
      'Ford files annual reports',
      'Kaveri Infotech - Annual Report',
    ]);
    expect(ranked.slice(2).sort()).toEqual(['10-K - Prairie Mutual', 'Tesla filing delayed']);
  });
});
