import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDocs, type ServerDocs } from './feed-support';
import { insertSearchDocs, signedUp as signedUpOn, titles, WIRE } from './search-support';
import { setupWorkspaceSuite } from './support';

/**
 * The search ops beside the window: what a search sends, search.refresh, the facets, and the
 * search mirror on sign-out.
 */
const suite = setupWorkspaceSuite({ ingest: false });
let docs: ServerDocs;

beforeAll(async () => {
  docs = await serverDocs(suite.env);
  await insertSearchDocs(docs);
});
afterAll(() => docs?.close());

const signedUp = () => signedUpOn(suite);

describe('search.window requests', () => {
  it('sends the search parameters as the body of POST /search (or /search/{source})', async () => {
    const { net, tab } = await signedUp();
    await tab.api.call('search.window', {
      params: {
        q: '  wombat  ',
        tab: 'rss_news',
        sort: 'oldest',
        date_range: { durationOption: null, startDate: '01-01-2024', endDate: '31-12-2024' },
        today: true,
        timezone: 'Europe/London',
        spell_correct: false,
        filter: { tags: ['Earnings'] },
      },
      offset: 0,
      count: 10,
    });
    await tab.api.call('search.window', {
      params: { q: 'wombat', source: WIRE, search_type: 'needl_web' },
      offset: 0,
      count: 10,
    });
    expect(net.asked).toEqual([
      {
        path: '/api/search',
        body: {
          type: 'category',
          q: 'wombat',
          num_docs: 50,
          start_from: 0,
          sort: 'oldest',
          spell_correct: false,
          tab: 'rss_news',
          date_range: { startDate: '01-01-2024', endDate: '31-12-2024' },
          today_date_range: true,
          timezone: 'Europe/London',
          filter: { tags: ['Earnings'] },
        },
      },
      {
        path: `/api/search/${WIRE}`,
        body: {
          type: 'category',
          q: 'wombat',
          num_docs: 50,
          start_from: 0,
          sort: 'relevance',
          spell_correct: true,
          search_type: 'needl_web',
        },
      },
    ]);
  });

  it('is wiped with the rest of the mirror on sign-out', async () => {
    const { ws, tab, window } = await signedUp();
    await window('quokka', 0, 20);
    await tab.api.call('auth.signOut', {});
    const db = await ws.openMirror();
    expect(await db.keys('search_queries')).toEqual([]);
    expect(await db.keys('search_results')).toEqual([]);
    db.close();
  });
});

describe('search.refresh, search.tags and search.exchanges', () => {
  it('refreshes the first page now', async () => {
    const { net, tab, window } = await signedUp();
    await window('quokka', 0, 20);
    const refreshed = await tab.api.call('search.refresh', {
      params: { q: 'quokka', sort: 'latest' },
    });
    expect(titles(refreshed)).toEqual([
      'Quokka sighting 3',
      'Quokka sighting 2',
      'Quokka sighting 1',
    ]);
    expect(refreshed.stale).toBe(false);
    expect(net.asked.length).toBe(2);
  });

  it("answers the user's tag facets and the companies filing, by country", async () => {
    const { tab, window } = await signedUp();
    // Facets are the user's own tags (issue 21): Earnings on both survey items, Guidance on one.
    const rows = (await window('numbat survey', 0, 10)).rows;
    const deeplinkOf = (title: string) => rows.find((r) => r.title_label === title)!.deeplink;
    await tab.api.call('tags.setDocument', {
      deeplink: deeplinkOf('Numbat survey one'),
      tag_ids: ['t-earnings', 't-guidance'],
      create: [
        { id: 't-earnings', tag: 'Earnings' },
        { id: 't-guidance', tag: 'Guidance' },
      ],
    });
    await tab.api.call('tags.setDocument', {
      deeplink: deeplinkOf('Numbat survey two'),
      tag_ids: ['t-earnings'],
    });
    const params = { q: 'numbat' };
    expect(await tab.api.call('search.tags', { params })).toEqual([
      { key: 'Earnings', count: 2 },
      { key: 'Guidance', count: 1 },
    ]);
    expect(await tab.api.call('search.tags', { params, filter: 'guid' })).toEqual([
      { key: 'Guidance', count: 1 },
    ]);
    expect(await tab.api.call('search.exchanges', { params, country: 'India' })).toEqual([
      { key: 'Numbat Mining Ltd', count: 2 },
    ]);
    expect(await tab.api.call('search.exchanges', { params, country: 'US' })).toEqual([]);
  });
});
