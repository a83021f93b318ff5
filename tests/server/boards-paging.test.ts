import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followFixture, writeFixture } from './boards-fixture';
import { addDocs, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/** The fixture's home feed, newest first. */
const HOME = [
  'RBI holds repo rate at 6.50%',
  'Fed leaves rates unchanged',
  'India retail inflation eases to 4.3%',
  'Deccan Bank Q3 profit rises 12%',
  'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
  'Aravalli Steel Industries Ltd - Credit Rating',
  '10-K - Northwind Semiconductor Inc (0001532047) (Filer)',
];

type Page = {
  documents: Array<{ title: string; removed: boolean; entry_seq: number }>;
  next: string | null;
  has_more: boolean;
  count: number;
  seq: number;
};

describe.each(STORAGES)('paging a feed on %s', (storage) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFixture(h);
    ({ token } = await newUser(h));
    await followFixture(h, token);
  });
  afterAll(async () => {
    await h?.close();
  });

  const page = async (query: string): Promise<Page> => {
    const res = await h.call('GET', `/boards/home/v2?${query}`, { token });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body.results;
  };
  const titles = (p: Page) => p.documents.map((d) => d.title);

  it('pages newest first by before, each page continuing where the last ended', async () => {
    const first = await page('num_docs=3');
    expect(titles(first)).toEqual(HOME.slice(0, 3));
    expect(first).toMatchObject({ count: 7, has_more: true });
    // A document arriving between pages does not shift the pages after the cursor.
    await addDocs(h, 'demo_markets_wire', [
      news('late', 'Breaking: markets open higher', 'Gap up.', 0),
    ]);
    const second = await page(`num_docs=3&before=${encodeURIComponent(first.next!)}`);
    expect(titles(second)).toEqual(HOME.slice(3, 6));
    const third = await page(`num_docs=3&before=${encodeURIComponent(second.next!)}`);
    expect(titles(third)).toEqual(HOME.slice(6));
    expect(third).toMatchObject({ has_more: false, next: null });
    expect(titles(await page('num_docs=2&start_from=1'))).toEqual([HOME[0], HOME[1]]);
  });

  it('answers what changed after a sequence number, in entry order', async () => {
    const { seq } = await page('num_docs=1');
    await addDocs(h, 'demo_us_filings', [
      news('u2', '8-K - Cascade Microsystems Corp (0001614589) (Filer)', 'Results.', 0.2, {
        category: '8-K',
      }),
      news('u3', '10-Q - Ridgeline Bancorp Inc (0001410376) (Filer)', 'Quarter.', 0.1, {
        category: '10-Q',
      }),
    ]);
    const changed = await page(`after_seq=${seq}&num_docs=1`);
    expect(titles(changed)).toEqual(['8-K - Cascade Microsystems Corp (0001614589) (Filer)']);
    expect(changed.has_more).toBe(true);
    const rest = await page(`after_seq=${changed.seq}`);
    expect(titles(rest)).toEqual(['10-Q - Ridgeline Bancorp Inc (0001410376) (Filer)']);
    expect(rest.has_more).toBe(false);
    expect((await page(`after_seq=${rest.seq}`)).documents).toEqual([]);
  });

  it('filters by tab and sorts by the spec options', async () => {
    const indian = await page('tab=india_capital_markets');
    expect(titles(indian)).toEqual([HOME[4], HOME[5]]);
    expect(indian.count).toBe(2);
    const oldest = await page('sort=oldest&num_docs=2');
    expect(titles(oldest)).toEqual([HOME[6], HOME[5]]);
    const older = await page(`sort=oldest&num_docs=2&before=${encodeURIComponent(oldest.next!)}`);
    expect(titles(older)).toEqual([HOME[4], HOME[3]]);
    const companies = await page('sort=company_asc&tab=india_capital_markets');
    expect(titles(companies)).toEqual([HOME[5], HOME[4]]);
    const desc = await page('sort=company_desc&num_docs=1&tab=india_capital_markets');
    expect(titles(desc)).toEqual([HOME[4]]);
    expect(
      titles(await page(`sort=company_desc&tab=india_capital_markets&before=${desc.next}`)),
    ).toEqual([HOME[5]]);
  });

  it('refuses a malformed cursor or query', async () => {
    for (const query of [
      'before=yesterday',
      'before=12:',
      'num_docs=5001',
      'tab=today',
      'sort=random',
    ]) {
      const res = await h.call('GET', `/boards/home/v2?${query}`, { token });
      expect(res.status, query).toBe(400);
    }
    const cursor = await h.call('GET', '/boards/home/v2?before=yesterday', { token });
    expect(cursor.body.message).toBe('before: must be the next cursor of a previous page');
    expect(
      (await h.call('GET', '/boards/home/v2?sort=company_asc&before=1700000000:abc', { token }))
        .status,
    ).toBe(400);
    expect((await h.call('GET', '/boards/nope/v2', { token })).status).toBe(404);
  });

  it('counts a feed per tab with the spec labels, hidden tabs never present', async () => {
    const meta = await h.call('GET', '/boards/home/metadata', { token });
    expect(
      meta.body.category_tabs.map(
        (t: { key: string; label: string; data: number }) => `${t.label}=${t.data}`,
      ),
    ).toEqual([
      'News=5',
      'Indian Exchange=2',
      'US Exchange=3',
      'Research=0',
      'Web Clips=0',
      'Documents=0',
    ]);
    expect(meta.body).toMatchObject({ board_id: 'home', count: 10, sources: 3, version: 0 });
    const keys = meta.body.category_tabs.map((t: { key: string }) => t.key);
    for (const hidden of ['today', 'links', 'media', 'exchanges'])
      expect(keys).not.toContain(hidden);
  });
});
