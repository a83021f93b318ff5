import { parseKeywordQuery } from '../../contract/keyword-query';
import type { EngineQuery, SearchScope } from '../../server/search/engine';
import { engineFor } from '../../server/search/engines';
import { followSource } from '../../server/sources/follow';
import { iso } from '../../server/time';
import { inTransaction } from '../../server/db/tx';
import { addDocs, news, newUser } from './documents-helpers';
import type { Harness } from './harness';

/**
 * The engine acceptance suites' corpus: three public sources (news, Indian and US filings),
 * one private source of Ada's and one of Bob's, stored through insertDocuments (so indexed as
 * ingestion indexes). Ada follows the news and the Indian filings. Times are hours before the
 * harness clock; within a source a batch is numbered oldest first, sources in the order below.
 */

export const SOURCES = {
  news: 'se-news',
  india: 'se-india',
  us: 'se-us',
  ada: 'se-ada-private',
  bob: 'se-bob-private',
} as const;

type SourceRow = {
  id: string;
  category_tab: 'rss_news' | 'exchanges';
  market: 'india_capital_markets' | 'us_capital_markets' | null;
  owner: string | null;
};

const addSource = (h: Harness, s: SourceRow) =>
  h.db
    .insertInto('sources')
    .values({
      id: s.id,
      key: s.id.replace(/-/g, '_'),
      kind: s.owner ? 'rss' : 'builtin',
      label: `Source ${s.id}`,
      url: s.owner ? `https://example.com/${s.id}.xml` : null,
      site_url: null,
      category: s.category_tab === 'exchanges' ? 'exchanges_groups' : 'rss_news',
      category_tab: s.category_tab,
      market: s.market,
      grp: null,
      thumbnail: null,
      flag: s.category_tab === 'exchanges' ? 'exchanges' : 'rss_news',
      public: s.owner ? 0 : 1,
      owner_user_id: s.owner,
      created_at: iso(h.clock.now),
    })
    .execute();

export type Fixture = { ada: string; bob: string; idOf: (title: string) => string };

export async function writeEngineFixture(h: Harness): Promise<Fixture> {
  const ada = (await newUser(h, 'Ada Lovelace')).userId;
  const bob = (await newUser(h, 'Bob Stone')).userId;
  await addSource(h, { id: SOURCES.news, category_tab: 'rss_news', market: null, owner: null });
  await addSource(h, {
    id: SOURCES.india,
    category_tab: 'exchanges',
    market: 'india_capital_markets',
    owner: null,
  });
  await addSource(h, {
    id: SOURCES.us,
    category_tab: 'exchanges',
    market: 'us_capital_markets',
    owner: null,
  });
  await addSource(h, { id: SOURCES.ada, category_tab: 'rss_news', market: null, owner: ada });
  await addSource(h, { id: SOURCES.bob, category_tab: 'rss_news', market: null, owner: bob });
  await inTransaction(h.db, async (trx) => {
    await followSource(trx, ada, SOURCES.news, h.clock.now);
    await followSource(trx, ada, SOURCES.india, h.clock.now);
  });
  await addDocs(h, SOURCES.news, [
    news('n1', 'Tesla filing delayed', 'Tesla delayed its annual report filing.', 1, {
      company_name: 'Tesla Inc',
      categories: ['Autos'],
    }),
    news(
      'n2',
      'Ford files annual reports',
      'Ford filed annual reports on time and its revenue rose by a wide margin this year.',
      2,
      { company_name: 'Ford Motor', categories: ['Autos'] },
    ),
    news('n3', 'Café owners protest', 'Café owners in Pune protested against rent hikes.', 3),
    news(
      'n4',
      'Companies report earnings',
      'Many companies reported quarterly earnings; revenue grew.',
      4,
      { categories: ['Markets'] },
    ),
    news('n5', 'Tax rules tighten', 'New taxes on imports were announced near the border.', 5, {
      categories: ['Policy'],
    }),
  ]);
  await addDocs(h, SOURCES.india, [
    news(
      'f1',
      'Deccan Bank - Financial Results',
      'Deccan Bank reported revenue from operations up 12%. Deccan Bank thanked investors.',
      6,
      { company_name: 'Deccan Bank Ltd', categories: ['Financial Results'] },
    ),
    news(
      'f2',
      'Kaveri Infotech - Annual Report',
      'Kaveri Infotech filed its annual report for the year.',
      7,
      { company_name: 'Kaveri Infotech Ltd', categories: ['Annual Report'] },
    ),
  ]);
  await addDocs(h, SOURCES.us, [
    news('u1', '10-K - Prairie Mutual', 'Prairie Mutual filed an annual report. Revenue fell.', 8, {
      company_name: 'Prairie Mutual Insurance Co',
      categories: ['10-K'],
    }),
  ]);
  await addDocs(h, SOURCES.ada, [
    news('a1', 'Ada private tesla notes', 'My own notes on the revenue of tesla.', 2.5),
  ]);
  await addDocs(h, SOURCES.bob, [
    news('b1', 'Bob secret tesla memo', 'Private notes about tesla and revenue.', 1.5),
  ]);
  const rows = await h.db.selectFrom('documents').select(['id', 'title']).execute();
  const ids = new Map(rows.map((r) => [r.title, r.id]));
  return {
    ada,
    bob,
    idOf: (title) => {
      const id = ids.get(title);
      if (!id) throw new Error(`no document titled ${title}`);
      return id;
    },
  };
}

export const scopeOf = (viewerId: string, parts: Partial<Omit<SearchScope, 'viewerId'>>) => ({
  viewerId,
  feeds: [],
  sourceIds: [],
  publicCorpus: false,
  ownedBy: null,
  ...parts,
});

/** A query as the API builds one: the parsed text, no filters, top 20 by relevance. */
export const engineQuery = (
  q: string,
  scope: SearchScope,
  more: Partial<EngineQuery> = {},
): EngineQuery => ({
  expr: parseKeywordQuery(q).expr,
  scope,
  sort: 'relevance',
  offset: 0,
  limit: 20,
  tabCounts: false,
  tab: null,
  from: null,
  to: null,
  companies: null,
  tags: null,
  market: null,
  ...more,
});

/** The titles of a search's page, in order. */
export async function titles(h: Harness, query: EngineQuery): Promise<string[]> {
  const answer = await engineFor(h.db).search(h.db, query);
  if (answer.hits.length === 0) return [];
  const rows = await h.db
    .selectFrom('documents')
    .select(['id', 'title'])
    .where(
      'id',
      'in',
      answer.hits.map((hit) => hit.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r.title]));
  return answer.hits.map((hit) => byId.get(hit.id) ?? hit.id);
}

/** The same titles, sorted: for answers whose order the test does not assert. */
export const titleSet = async (h: Harness, query: EngineQuery) => (await titles(h, query)).sort();
