import { searchKey, searchRowId, SearchParams, type SearchWindow } from '../../contract/search';
import type { WorkerEvent } from '../../contract/worker-api';
import type { FetchLike } from '../../worker/deps';
import { nodeFetch } from '../../worker/headless';
import type { ManualClock } from '../../worker/testing';
import { newsItem, type ServerDocs } from './feed-support';
import { newUser, type WorkspaceSuite } from './support';

/** The search tests' documents, users and request log (tests/worker/search*.test.ts). */

export const WIRE = 'demo_markets_wire';
export const FILINGS = 'demo_india_filings';
/** Published times of the test's documents: 2024-06-01 and a minute apart after it. */
export const T0 = 1_717_200_000;

const pad = (i: number) => String(i).padStart(3, '0');

/**
 * Documents only these tests' queries match: 3 quokka, 2 axolotl and 130 wombat news items
 * (numbered in time order), 2 numbat news items with categories, 2 numbat filings of one
 * company on the Indian exchange.
 */
export async function insertSearchDocs(docs: ServerDocs) {
  await docs.insert(
    WIRE,
    [1, 2, 3].map((i) => newsItem(`quokka-${i}`, `Quokka sighting ${i}`, T0 + i * 60)),
  );
  await docs.insert(
    WIRE,
    [1, 2].map((i) => newsItem(`axolotl-${i}`, `Axolotl census ${i}`, T0 + i * 60)),
  );
  await docs.insert(
    WIRE,
    Array.from({ length: 130 }, (_, k) =>
      newsItem(`wombat-${k + 1}`, `Wombat report ${pad(k + 1)}`, T0 + (k + 1) * 60),
    ),
  );
  await docs.insert(WIRE, [
    { ...newsItem('numbat-1', 'Numbat survey one', T0), categories: ['Earnings', 'Guidance'] },
    { ...newsItem('numbat-2', 'Numbat survey two', T0 + 60), categories: ['Earnings'] },
  ]);
  await docs.insert(
    FILINGS,
    [1, 2].map((i) => ({
      ...newsItem(`numbat-filing-${i}`, `Numbat Mining filing ${i}`, T0 + i * 60),
      company_name: 'Numbat Mining Ltd',
    })),
  );
}

/**
 * Search requests, logged when they reach the server; while `hold` is set they wait for it,
 * while `offline` they fail.
 */
export function searchNet() {
  const net = {
    asked: [] as Array<{ path: string; body: Record<string, unknown> }>,
    hold: null as Promise<void> | null,
    /** Search requests fail as a lost network fails them. */
    offline: false,
  };
  const fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    if (path.startsWith('/api/search')) {
      if (net.offline) throw new TypeError('fetch failed (offline)');
      if (net.hold) await net.hold;
      net.asked.push({ path, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    }
    return nodeFetch(url, init);
  };
  return { net, fetch };
}

/** A new user following the test's sources, in a workspace whose search requests are logged. */
export async function signedUp(suite: WorkspaceSuite, clock?: ManualClock) {
  const { net, fetch } = searchNet();
  const ws = suite.workspace({ fetch, ...(clock ? { clock } : {}) });
  const tab = await ws.tab();
  await tab.api.call('auth.signUp', newUser());
  await tab.api.call('sources.followMany', { keys: [WIRE, FILINGS] });
  const window = (q: string, offset: number, count: number, extra: object = {}) =>
    tab.api.call('search.window', { params: { q, sort: 'latest', ...extra }, offset, count });
  return { ws, tab, net, window };
}

export const titles = (w: SearchWindow) => w.rows.map((r) => r.title_label);
/** The mirror key of a newest-first search for `q`. */
export const keyOf = (q: string) => searchKey(SearchParams.parse({ q, sort: 'latest' }));
/** A 'changed' event naming the first row of the search `key` (or the whole store). */
export const resultsChanged = (key: string) => (e: WorkerEvent) =>
  e.type === 'changed' &&
  e.store === 'search_results' &&
  (e.keys?.includes(searchRowId(key, 0)) ?? true);
