import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRowId } from '../../contract/search';
import { createManualClock, type ManualClock } from '../../worker/testing';
import { newsItem, serverDocs, type ServerDocs } from './feed-support';
import {
  insertSearchDocs,
  keyOf,
  resultsChanged,
  signedUp as signedUpOn,
  T0,
  titles,
  WIRE,
} from './search-support';
import { createGate, setupWorkspaceSuite } from './support';

/**
 * The search mirror against the real server: a repeated search paints from the mirror and is
 * revalidated behind it, windows deep in a list fetch the server pages covering them (pages of
 * 50, one request per page however many windows ask), old searches are evicted.
 */
const suite = setupWorkspaceSuite({ ingest: false });
let docs: ServerDocs;

beforeAll(async () => {
  docs = await serverDocs(suite.env);
  await insertSearchDocs(docs);
});
afterAll(() => docs?.close());

/** Moves `clock` on (300 ms at a time) until `work` settles. */
async function whileAdvancing<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  while (!settled) await clock.advance(300);
  return done;
}

const signedUp = (clock?: Parameters<typeof signedUpOn>[1]) => signedUpOn(suite, clock);

describe('search.window', () => {
  it('paints a repeated search from the mirror, and revalidates it once it is not fresh', async () => {
    const clock = createManualClock();
    const { ws, tab, net, window } = await signedUp(clock);
    const first = await window('quokka', 0, 20);
    expect(titles(first)).toEqual(['Quokka sighting 3', 'Quokka sighting 2', 'Quokka sighting 1']);
    expect(first).toMatchObject({ count: 3, count_exact: true, reachable: 3, stale: false });
    expect(first.category_tabs[0]).toEqual({
      key: 'rss_news',
      label: 'News',
      data: 3,
      icon: 'newspaper',
    });
    expect(net.asked.length).toBe(1);

    // Within 15 s the mirror's answer is fresh: no request at all.
    const again = await window('quokka', 0, 20);
    expect(titles(again)).toEqual(titles(first));
    expect(again.stale).toBe(false);
    expect(net.asked.length).toBe(1);

    // Later it paints from the mirror at once, while the revalidation has not reached the server.
    await clock.advance(15_000);
    const gate = createGate();
    net.hold = gate.opened;
    const since = tab.events.length;
    const later = await window('quokka', 0, 20);
    expect(later.stale).toBe(true);
    expect(titles(later)).toEqual(['Quokka sighting 3', 'Quokka sighting 2', 'Quokka sighting 1']);
    expect(net.asked.length).toBe(1);
    gate.open();
    await ws.workspace.idle();
    expect(net.asked.length).toBe(2);
    expect(net.asked[1].body).toMatchObject({ q: 'quokka', start_from: 0, num_docs: 50 });
    // The answer had not moved: the tabs hear nothing, and the search is fresh again.
    expect(tab.events.slice(since).filter(resultsChanged(keyOf('quokka')))).toEqual([]);
    expect((await window('quokka', 0, 20)).stale).toBe(false);
    expect(net.asked.length).toBe(2);
  });

  it('replaces the rows when new feed documents move the answer, and says so', async () => {
    const { ws, tab, net, window } = await signedUp();
    expect(titles(await window('axolotl', 0, 20))).toEqual([
      'Axolotl census 2',
      'Axolotl census 1',
    ]);
    expect(net.asked.length).toBe(1);

    await docs.insert(WIRE, [newsItem('axolotl-3', 'Axolotl census 3', T0 + 600)]);
    await tab.api.call('sync.pull', {});
    await ws.workspace.idle();

    // The feed moved: the mirror answers at once, marked stale, and the first page is asked again.
    const since = tab.events.length;
    const stale = await window('axolotl', 0, 20);
    expect(stale.stale).toBe(true);
    expect(titles(stale)).toEqual(['Axolotl census 2', 'Axolotl census 1']);
    await tab.waitFor(resultsChanged(keyOf('axolotl')), { since });
    const fresh = await window('axolotl', 0, 20);
    expect(titles(fresh)).toEqual(['Axolotl census 3', 'Axolotl census 2', 'Axolotl census 1']);
    expect(fresh).toMatchObject({ count: 3, stale: false });
    expect(fresh.category_tabs[0]).toMatchObject({ key: 'rss_news', data: 3 });
    expect(net.asked.length).toBe(2);
  });

  it('carries read state, and tells the tabs when a row of theirs is read', async () => {
    const { tab, window } = await signedUp();
    const first = await window('quokka', 0, 1);
    expect(first.rows.map((r) => [r.title_label, r.read])).toEqual([['Quokka sighting 3', false]]);
    const since = tab.events.length;
    await tab.api.call('doc.setRead', { deeplinks: [first.rows[0].deeplink], status: 'read' });
    await tab.waitFor(resultsChanged(keyOf('quokka')), { since });
    expect((await window('quokka', 0, 1)).rows.map((r) => r.read)).toEqual([true]);
  });

  it('answers what the mirror holds while the network is down', async () => {
    const clock = createManualClock();
    const { ws, net, window } = await signedUp(clock);
    await window('wombat', 0, 20);
    net.offline = true;
    await clock.advance(15_000);
    // The client retries a lost network twice, 300 ms apart, on the workspace's clock.
    const stale = await whileAdvancing(clock, window('wombat', 40, 20));
    expect(stale.stale).toBe(true);
    // Page 0 (ranks 0-49) is mirrored, page 1 could not be fetched: the rows up to rank 49.
    expect(titles(stale)).toEqual([
      'Wombat report 090',
      'Wombat report 089',
      'Wombat report 088',
      'Wombat report 087',
      'Wombat report 086',
      'Wombat report 085',
      'Wombat report 084',
      'Wombat report 083',
      'Wombat report 082',
      'Wombat report 081',
    ]);
    await whileAdvancing(clock, ws.workspace.idle());
    expect(net.asked.length).toBe(1);
  });

  it('fetches the server pages covering a window deep in the list, each once', async () => {
    const { net, window } = await signedUp();
    const top = await window('wombat', 0, 20);
    expect(top).toMatchObject({ count: 130, reachable: 130 });
    expect(titles(top).slice(0, 2)).toEqual(['Wombat report 130', 'Wombat report 129']);

    const deep = await window('wombat', 120, 20);
    expect(titles(deep)).toEqual([
      'Wombat report 010',
      'Wombat report 009',
      'Wombat report 008',
      'Wombat report 007',
      'Wombat report 006',
      'Wombat report 005',
      'Wombat report 004',
      'Wombat report 003',
      'Wombat report 002',
      'Wombat report 001',
    ]);
    const across = await window('wombat', 45, 10);
    expect(titles(across)).toEqual([
      'Wombat report 085',
      'Wombat report 084',
      'Wombat report 083',
      'Wombat report 082',
      'Wombat report 081',
      'Wombat report 080',
      'Wombat report 079',
      'Wombat report 078',
      'Wombat report 077',
      'Wombat report 076',
    ]);
    // The first page brings the category tabs too; later pages are plain searches.
    expect(net.asked.map((r) => [r.body.type, r.body.start_from, r.body.num_docs])).toEqual([
      ['category', 0, 50],
      ['search', 100, 50],
      ['search', 50, 50],
    ]);
    // Every row is mirrored now: any window is answered without a request.
    expect(titles(await window('wombat', 60, 3))).toEqual([
      'Wombat report 070',
      'Wombat report 069',
      'Wombat report 068',
    ]);
    expect(net.asked.length).toBe(3);
  });

  it('shares one request among concurrent windows over the same page', async () => {
    const { net, window } = await signedUp();
    const [a, b, c] = await Promise.all([
      window('wombat', 0, 20, { sort: 'oldest' }),
      window('wombat', 20, 20, { sort: 'oldest' }),
      window('wombat', 60, 5, { sort: 'oldest' }),
    ]);
    expect([titles(a)[0], titles(b)[0], titles(c)[0]]).toEqual([
      'Wombat report 001',
      'Wombat report 021',
      'Wombat report 061',
    ]);
    expect(net.asked.map((r) => r.body.start_from).sort()).toEqual([0, 50]);
  });

  it('keeps the 50 most recently read searches, dropping older ones with their rows', async () => {
    const { ws, net, window } = await signedUp();
    await window('quokka', 0, 20);
    for (let i = 1; i <= 50; i += 1) await window(`nothing${i}`, 0, 20);
    expect(net.asked.length).toBe(51);
    const db = await ws.openMirror();
    expect(await db.count('search_queries', { index: 'used' })).toBe(50);
    expect(await db.get('search_queries', keyOf('quokka'))).toBeUndefined();
    expect(await db.get('search_results', searchRowId(keyOf('quokka'), 0))).toBeUndefined();
    db.close();
    // The newest is answered by the mirror; the dropped one is asked again.
    await window('nothing50', 0, 20);
    expect(net.asked.length).toBe(51);
    expect(titles(await window('quokka', 0, 20))).toEqual([
      'Quokka sighting 3',
      'Quokka sighting 2',
      'Quokka sighting 1',
    ]);
    expect(net.asked.length).toBe(52);
  });
});
