import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_SORTS, type SearchSort } from '../../contract/search';
import type { EngineQuery } from '../../server/search/engine';
import { engineFor } from '../../server/search/engines';
import { plannerTuning } from '../../server/search/planner';
import { HOUR, T0 } from './documents-helpers';
import {
  engineQuery,
  scopeOf,
  titles,
  titleSet,
  writeEngineFixture,
  type Fixture,
} from './search-engine-fixture';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * Filters, every sort of 002 §9, paging and tab counts, on every storage. Each runs three
 * times: as a small corpus is answered (every match read), and with the planner's thresholds
 * at zero, as a million documents are answered (matches ranked then checked best first; the
 * scope walked in time order, matches streamed in seq order, relevance ranked over a window):
 * the answers must be the same.
 */
const REVENUE_BY_SORT: Record<SearchSort, string[]> = {
  relevance: [],
  latest: [
    'Ford files annual reports',
    'Companies report earnings',
    'Deccan Bank - Financial Results',
    '10-K - Prairie Mutual',
  ],
  oldest: [
    '10-K - Prairie Mutual',
    'Deccan Bank - Financial Results',
    'Companies report earnings',
    'Ford files annual reports',
  ],
  // Stored order: the news batch (oldest first), then the Indian filings, then the US one.
  updated_latest: [
    '10-K - Prairie Mutual',
    'Deccan Bank - Financial Results',
    'Ford files annual reports',
    'Companies report earnings',
  ],
  updated_oldest: [
    'Companies report earnings',
    'Ford files annual reports',
    'Deccan Bank - Financial Results',
    '10-K - Prairie Mutual',
  ],
  // Plain text of 83, 82, 57 and 52 characters.
  size_largest: [
    'Deccan Bank - Financial Results',
    'Ford files annual reports',
    'Companies report earnings',
    '10-K - Prairie Mutual',
  ],
  size_smallest: [
    '10-K - Prairie Mutual',
    'Companies report earnings',
    'Ford files annual reports',
    'Deccan Bank - Financial Results',
  ],
  // No document has attachments yet: both orders are newest first.
  attachments_with: [
    'Ford files annual reports',
    'Companies report earnings',
    'Deccan Bank - Financial Results',
    '10-K - Prairie Mutual',
  ],
  attachments_without: [
    'Ford files annual reports',
    'Companies report earnings',
    'Deccan Bank - Financial Results',
    '10-K - Prairie Mutual',
  ],
  // Deccan Bank Ltd, Ford Motor, Prairie Mutual Insurance Co; one without a company, last.
  company_asc: [
    'Deccan Bank - Financial Results',
    'Ford files annual reports',
    '10-K - Prairie Mutual',
    'Companies report earnings',
  ],
  company_desc: [
    '10-K - Prairie Mutual',
    'Ford files annual reports',
    'Deccan Bank - Financial Results',
    'Companies report earnings',
  ],
  // 10-K, Autos, Financial Results, Markets.
  category_asc: [
    '10-K - Prairie Mutual',
    'Ford files annual reports',
    'Deccan Bank - Financial Results',
    'Companies report earnings',
  ],
  category_desc: [
    'Companies report earnings',
    'Deccan Bank - Financial Results',
    'Ford files annual reports',
    '10-K - Prairie Mutual',
  ],
};

const DEFAULTS = { ...plannerTuning };
const PLANS = [
  { plan: 'every match read', ...DEFAULTS },
  { plan: 'ranked, then checked best first', ...DEFAULTS, exactMax: 0 },
  { plan: 'walked as a large corpus', ...DEFAULTS, exactMax: 0, rankAll: 0 },
];

describe.each(STORAGES)('search engine sorts and filters on %s', (storage) => {
  let h: Harness;
  let f: Fixture;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    f = await writeEngineFixture(h);
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    Object.assign(plannerTuning, DEFAULTS);
  });

  const revenue = (more: Partial<EngineQuery> = {}) =>
    engineQuery('revenue', scopeOf(f.ada, { publicCorpus: true }), more);

  describe.each(PLANS)('$plan', ({ plan: _plan, ...tuning }) => {
    const tune = () => {
      Object.assign(plannerTuning, tuning);
    };

    it.each(SEARCH_SORTS.filter((s) => s !== 'relevance'))('sorts %s', async (sort) => {
      tune();
      expect(await titles(h, revenue({ sort }))).toEqual(REVENUE_BY_SORT[sort]);
    });

    it('pages through an answer', async () => {
      tune();
      const pageOf = (offset: number) => titles(h, revenue({ sort: 'latest', offset, limit: 2 }));
      expect(await pageOf(0)).toEqual(REVENUE_BY_SORT.latest.slice(0, 2));
      expect(await pageOf(2)).toEqual(REVENUE_BY_SORT.latest.slice(2));
      expect(await pageOf(4)).toEqual([]);
      const answer = await engineFor(h.db).search(h.db, revenue({ offset: 4, limit: 2 }));
      expect(answer.total).toBe(4);
    });

    it('counts matches per feed tab, whatever tab is asked', async () => {
      tune();
      const tabs = { rss_news: 2, india_capital_markets: 1, us_capital_markets: 1 };
      const all = await engineFor(h.db).search(h.db, revenue({ tabCounts: true }));
      expect(all).toMatchObject({ total: 4, exact: true, tabs });
      const news = await engineFor(h.db).search(
        h.db,
        revenue({ tabCounts: true, tab: 'rss_news', sort: 'latest' }),
      );
      expect(news).toMatchObject({ total: 2, exact: true, tabs });
      expect(await titles(h, revenue({ tab: 'rss_news', sort: 'latest' }))).toEqual([
        'Ford files annual reports',
        'Companies report earnings',
      ]);
    });

    it('filters by tab, dates, companies, tags and market', async () => {
      tune();
      const by = (more: Partial<EngineQuery>) => titleSet(h, revenue(more));
      expect(await by({ tab: 'us_capital_markets' })).toEqual(['10-K - Prairie Mutual']);
      expect(await by({ from: T0 - 6 * HOUR, to: T0 - 3 * HOUR })).toEqual([
        'Companies report earnings',
        'Deccan Bank - Financial Results',
      ]);
      expect(await by({ companies: ['FORD MOTOR', 'Nobody Inc'] })).toEqual([
        'Ford files annual reports',
      ]);
      // Tags are the viewer's own (user_tags), by name in any case; another user's count for nothing.
      const at = '2025-03-03T10:00:00.000Z';
      const tagged = f.idOf('Deccan Bank - Financial Results');
      for (const [user, id] of [
        [f.ada, 'se-tag-ada'],
        [f.bob, 'se-tag-bob'],
      ] as const) {
        const name = user === f.ada ? 'Financial Results' : 'Ford';
        await h.db
          .insertInto('user_tags')
          .values({ user_id: user, id, name, name_key: name.toLowerCase(), created_at: at })
          .onConflict((oc) => oc.doNothing())
          .execute();
        const document_id = user === f.ada ? tagged : f.idOf('Ford files annual reports');
        await h.db
          .insertInto('document_tags')
          .values({ user_id: user, tag_id: id, document_id, created_at: at })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      expect(await by({ tags: ['financial results'] })).toEqual([
        'Deccan Bank - Financial Results',
      ]);
      expect(await by({ tags: ['ford'] })).toEqual([]);
      expect(await by({ market: 'us_capital_markets' })).toEqual(['10-K - Prairie Mutual']);
      expect(await by({ companies: [] })).toEqual([]);
    });

    it('lists the scope newest first when there are no words', async () => {
      tune();
      const everything = engineQuery('', scopeOf(f.ada, { publicCorpus: true }), {
        limit: 3,
        tabCounts: true,
      });
      const answer = await engineFor(h.db).search(h.db, everything);
      expect(answer).toMatchObject({
        total: 8,
        exact: true,
        tabs: { rss_news: 5, india_capital_markets: 2, us_capital_markets: 1 },
      });
      expect(answer.hits.map((hit) => hit.score)).toEqual([null, null, null]);
      expect(await titles(h, everything)).toEqual([
        'Tesla filing delayed',
        'Ford files annual reports',
        'Café owners protest',
      ]);
    });
  });

  it('ranks common words over the newest documents only, saying so', async () => {
    Object.assign(plannerTuning, { exactMax: 0, rankAll: 0, sample: 1 });
    // The best match of the newest window that holds one in scope (past Bob's and Ada's
    // private notes, stored last); its counts are estimates.
    const answer = await engineFor(h.db).search(h.db, revenue({ limit: 1, tabCounts: true }));
    expect(answer.exact).toBe(false);
    expect(answer.hits).toHaveLength(1);
    expect(REVENUE_BY_SORT.latest).toContain((await titles(h, revenue({ limit: 1 })))[0]);
    // A walk that reaches the end of the scope has seen every answer: exact.
    const walked = await engineFor(h.db).search(h.db, revenue({ sort: 'latest' }));
    expect(walked).toMatchObject({ total: 4, exact: true });
  });
});
