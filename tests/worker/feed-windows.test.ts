import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardDocs, BoardSort } from '../../contract/boards';
import type { FeedTabKey } from '../../contract/documents';
import { serverDocs, type ServerDocs } from './feed-support';
import { createFaultyFetch, newUser, serverView, setupWorkspaceSuite } from './support';

/**
 * A feed of a few thousand entries mirrored whole: windows in every sort and tab come from the
 * mirror's indexes and match the server's pages.
 */
const suite = setupWorkspaceSuite({ ingest: false });
const SOURCES = ['demo_markets_wire', 'demo_india_filings', 'demo_us_filings', 'demo_research'];
const GENERATED = 5000;
let docs: ServerDocs;

beforeAll(async () => {
  docs = await serverDocs(suite.env);
  expect(await docs.generate(SOURCES, GENERATED, 606)).toBe(GENERATED);
});
afterAll(() => docs?.close());

type Window = { rows: Array<{ doc_id: string }>; total: number; complete: boolean };
const ids = (w: { rows: Array<{ doc_id: string }> }) => w.rows.map((r) => r.doc_id);

async function signedUpFollowing() {
  const user = newUser();
  const { fetch, state } = createFaultyFetch();
  const ws = suite.workspace({ fetch });
  const tab = await ws.tab();
  await tab.api.call('auth.signUp', user);
  const followed = await tab.api.call('sources.followMany', { keys: SOURCES });
  expect(followed.sources.map((s) => s.key).sort()).toEqual([...SOURCES].sort());
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const page = async (query: string) =>
    ((await server.get(`/boards/home/v2?${query}`)) as BoardDocs).results;
  return { ws, tab, state, page };
}

describe('feed.window over a mirrored feed', () => {
  it('answers the first window from the server at once, then backfills the whole feed', async () => {
    const { ws, tab, page } = await signedUpFollowing();
    const top = await page('num_docs=50');
    expect(top.count).toBeGreaterThan(GENERATED);

    const first = await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 50,
    });
    expect(ids(first)).toEqual(top.documents.map((d) => d.doc_id));
    expect(first).toMatchObject({ total: top.count, complete: false });

    // Backfill pages (2,500 entries each) land one by one, each announced to the tabs.
    const since = tab.events.length;
    await ws.workspace.idle();
    const announced = tab.events
      .slice(since)
      .filter((e) => e.type === 'changed' && e.store === 'feed_entries');
    expect(announced.length).toBeGreaterThanOrEqual(2);

    const db = await ws.openMirror();
    expect(
      await db.count('feed_entries', { index: 'time', lower: ['home'], upper: ['home', []] }),
    ).toBe(top.count);
    db.close();
    const again = await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 50,
    });
    expect(again).toMatchObject({ total: top.count, complete: true });
  });

  it('reads windows in every time sort and tab from the mirror, as the server pages them', async () => {
    const { ws, tab, state, page } = await signedUpFollowing();
    await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 20,
    });
    await ws.workspace.idle();

    const tabs: Array<FeedTabKey | null> = [
      null,
      'rss_news',
      'india_capital_markets',
      'us_capital_markets',
      'research',
    ];
    const sorts: BoardSort[] = ['latest', 'oldest'];
    const cases: Array<{
      tab: FeedTabKey | null;
      sort: BoardSort;
      offset: number;
      expected: BoardDocs['results'];
    }> = [];
    for (const t of tabs) {
      for (const sort of sorts) {
        const total = (await page(`num_docs=0${t ? `&tab=${t}` : ''}`)).count;
        expect(total).toBeGreaterThan(500);
        for (const offset of [0, Math.floor(total / 2), total - 7]) {
          const query = `num_docs=25&start_from=${offset}&sort=${sort}${t ? `&tab=${t}` : ''}`;
          cases.push({ tab: t, sort, offset, expected: await page(query) });
        }
      }
    }

    const before = state.sent.length;
    for (const { tab: t, sort, offset, expected } of cases) {
      const window: Window = await tab.api.call('feed.window', {
        board: 'home',
        tab: t,
        sort,
        offset,
        count: 25,
      });
      expect(ids(window), `${sort} ${t ?? 'all'} @${offset}`).toEqual(
        expected.documents.map((d) => d.doc_id),
      );
      expect(window.total).toBe(expected.count);
      expect(window.complete).toBe(true);
    }
    // Every one of those windows came from the mirror: not one request for the feed.
    expect(state.sent.slice(before).filter((r) => r.includes('/boards/'))).toEqual([]);
  });

  it("orders by company and category (the server's pages): A to Z and Z to A, none last", async () => {
    const { ws, tab } = await signedUpFollowing();
    await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 20,
    });
    await ws.workspace.idle();

    for (const [field, asc, desc] of [
      ['company_name', 'company_asc', 'company_desc'],
      ['categories', 'category_asc', 'category_desc'],
    ] as const) {
      const view = { board: 'home', tab: 'india_capital_markets' as const };
      const all = await tab.api.call('feed.window', { ...view, sort: asc, offset: 0, count: 500 });
      const value = (row: (typeof all.rows)[number]) => {
        const v = field === 'company_name' ? row.company_name : (row.categories[0] ?? null);
        return v?.trim().toLowerCase() ?? null;
      };
      const values = all.rows.map(value);
      const named = values.filter((v): v is string => v !== null);
      // A to Z, and documents without one after every one that has one.
      expect(named).toEqual([...named].sort());
      expect(values.slice(named.length).every((v) => v === null)).toBe(true);
      // Within one value, newest first.
      for (let i = 1; i < all.rows.length; i++) {
        if (values[i] === values[i - 1]) {
          expect(all.rows[i].unix).toBeLessThanOrEqual(all.rows[i - 1].unix);
        }
      }
      // Z to A: the same values the other way round, documents without one still last.
      const total = all.total;
      const down = await tab.api.call('feed.window', {
        ...view,
        sort: desc,
        offset: 0,
        count: 500,
      });
      const downValues = down.rows.map(value);
      const downNamed = downValues.filter((v): v is string => v !== null);
      expect(downNamed).toEqual([...downNamed].sort().reverse());
      expect(downValues.slice(downNamed.length).every((v) => v === null)).toBe(true);
      expect(down.total).toBe(total);
    }
  });
});
