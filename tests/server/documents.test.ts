import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDocs,
  changesOf,
  feedTitles,
  follow,
  HOUR,
  news,
  newUser,
  T0,
} from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

const WIRE = 'demo_markets_wire';

/** Turns a catalogue source into one only `userId` owns (as a followed URL is). */
const makePrivateTo = (h: Harness, key: string, userId: string) =>
  h.db
    .updateTable('sources')
    .set({ public: 0, owner_user_id: userId })
    .where('key', '=', key)
    .execute();

describe.each(STORAGES)('documents on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("fans new documents out to every follower's home feed, one 'feed' change per feed", async () => {
    const a = await newUser(h);
    const b = await newUser(h);
    const stranger = await newUser(h);
    await follow(h, a.token, WIRE);
    await follow(h, b.token, WIRE);
    const before = (await changesOf(h, a.token)).at(-1)!.seq;
    const result = await addDocs(h, WIRE, [
      news('fan-1', 'RBI holds repo rate at 6.50%', 'The committee voted 4-2.', 3),
      news('fan-2', 'Deccan Bank Q3 profit rises 12%', 'Margins improved.', 1),
      news('fan-3', 'Rupee slips to 86.2 per dollar', 'Outflows weighed.', 2),
    ]);
    expect(result).toEqual({ inserted: 3, duplicates: 0 });
    const titles = [
      'Deccan Bank Q3 profit rises 12%',
      'Rupee slips to 86.2 per dollar',
      'RBI holds repo rate at 6.50%',
    ];
    expect((await feedTitles(h, a.token)).slice(0, 3)).toEqual(titles);
    expect((await feedTitles(h, b.token)).slice(0, 3)).toEqual(titles);
    expect(await feedTitles(h, stranger.token)).toEqual([]);

    const feedChanges = (await changesOf(h, a.token, before)).filter((c) => c.entity === 'feed');
    expect(feedChanges).toHaveLength(1);
    expect(feedChanges[0]).toMatchObject({ entity_id: 'home', data: { board_id: 'home' } });
    const page = await h.call('GET', '/boards/home/v2?num_docs=1', { token: a.token });
    expect(feedChanges[0].data.seq).toBe(page.body.results.seq);
    expect(await changesOf(h, stranger.token)).toEqual([]);
  });

  it('stores a duplicate once, within a batch and across batches', async () => {
    const a = await newUser(h);
    await follow(h, a.token, 'demo_research');
    const first = await addDocs(h, 'demo_research', [
      news('guid-1', 'Initiating coverage on Kaveri Infotech', 'Buy.'),
      news('guid-1', 'Initiating coverage on Kaveri Infotech (again)', 'Buy.'),
      news('guid-2', 'Steel: realisations to recover', 'Top pick Aravalli.'),
    ]);
    expect(first).toEqual({ inserted: 2, duplicates: 1 });
    const cursor = (await changesOf(h, a.token)).at(-1)!.seq;
    const again = await addDocs(h, 'demo_research', [
      news('guid-2', 'Steel: realisations to recover', 'Top pick Aravalli.'),
      news('guid-1', 'Initiating coverage on Kaveri Infotech', 'Buy.'),
    ]);
    expect(again).toEqual({ inserted: 0, duplicates: 2 });
    expect(await feedTitles(h, a.token)).toEqual([
      'Initiating coverage on Kaveri Infotech',
      'Steel: realisations to recover',
    ]);
    // Nothing new: nobody is told to pull.
    expect(await changesOf(h, a.token, cursor)).toEqual([]);
    // With neither guid nor link, the title and text decide.
    const keyless = (title: string) => news('', title, 'Same text.', 9, { url: null });
    expect(await addDocs(h, 'demo_research', [keyless('No guid'), keyless('No guid')])).toEqual({
      inserted: 1,
      duplicates: 1,
    });
    expect(await addDocs(h, 'demo_research', [keyless('No guid'), keyless('Other title')])).toEqual(
      {
        inserted: 1,
        duplicates: 1,
      },
    );
  });

  it('sanitises HTML on the way in and fills a missing title and date', async () => {
    const a = await newUser(h);
    await follow(h, a.token, 'demo_tech_ledger');
    await addDocs(
      h,
      'demo_tech_ledger',
      [
        {
          dedupe_key: 'dirty',
          title: null,
          url: '/tech/chips',
          unix: null,
          html:
            '<p onclick="steal()">Northwind unveils an AI accelerator for inference.</p>' +
            '<script>alert(document.cookie)</script><img src="http://cdn.example.com/x.png" onerror="steal()">' +
            '<a href="javascript:alert(1)">click</a> <a href="/tech/more">more</a>',
          text: null,
          thumbnail: 'http://cdn.example.com/chip.png',
        },
      ],
      'https://tech.example.com/feed.xml',
    );
    const [card] = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents;
    expect(card).toMatchObject({
      title: 'Northwind unveils an AI accelerator for inference. click more',
      link: 'https://tech.example.com/tech/chips',
      unix: T0,
      thumbnail_location: null,
      plain_text: 'Northwind unveils an AI accelerator for inference.\n\nclick more',
    });
    const doc = await h.call('GET', `/doc/demo_tech_ledger?deeplink=${card.deeplink}`, {
      token: a.token,
    });
    expect(doc.status).toBe(200);
    expect(doc.body.results[0].content).toBe(
      '<p>Northwind unveils an AI accelerator for inference.</p>' +
        '<a>click</a> <a href="https://tech.example.com/tech/more" rel="noopener noreferrer nofollow">more</a>',
    );
  });

  it("opens a public source's document for anyone, a private source's only for its owner", async () => {
    const a = await newUser(h);
    const stranger = await newUser(h);
    await follow(h, a.token, 'demo_us_filings');
    await addDocs(h, 'demo_us_filings', [
      news('10k', '10-K - Northwind Semiconductor Inc (0001532047) (Filer)', 'Annual report.', 2, {
        company_name: 'Northwind Semiconductor Inc',
        security_code: 'NWSC',
        security_id: '0001532047',
        category: '10-K',
        secondary_category: 'Annual report',
      }),
    ]);
    const [card] = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents;
    expect(card).toMatchObject({
      source: 'demo_us_filings',
      label: 'US Filings (demo)',
      category: 'exchanges_groups',
      category_tab: 'exchanges',
      market: 'us_capital_markets',
      company_name: 'Northwind Semiconductor Inc',
      security_code: 'NWSC',
      categories: ['10-K'],
      unix: T0 - 2 * HOUR,
    });
    const path = `/doc/demo_us_filings?deeplink=${card.deeplink}`;
    const own = await h.call('GET', path, { token: a.token });
    expect(own.body.results[0]).toMatchObject({ body: 'Annual report.', read: false });
    // The public corpus is anyone's to read (web search and the assistant's web scope cite it).
    expect((await h.call('GET', path, { token: stranger.token })).status).toBe(200);
    await makePrivateTo(h, 'demo_us_filings', a.userId);
    expect((await h.call('GET', path, { token: stranger.token })).status).toBe(404);
    expect((await h.call('GET', path, { token: a.token })).status).toBe(200);
    expect(
      (await h.call('GET', `/doc/demo_research?deeplink=${card.deeplink}`, { token: a.token }))
        .status,
    ).toBe(404);
    expect(
      (await h.call('GET', '/doc/demo_us_filings?deeplink=nope', { token: a.token })).status,
    ).toBe(404);
    const missing = await h.call('GET', '/doc/demo_us_filings', { token: a.token });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/^deeplink/);
    expect((await h.call('GET', path)).status).toBe(401);
  });

  it('keeps read state per user, with a change per document and a cursor list', async () => {
    const a = await newUser(h);
    const b = await newUser(h);
    await follow(h, a.token, 'demo_policy_brief');
    await follow(h, b.token, 'demo_policy_brief');
    await addDocs(h, 'demo_policy_brief', [
      news('p1', 'Regulator tightens related-party rules', 'New threshold.', 3),
      news('p2', 'Tribunal stays tax demand', 'Interim stay.', 2),
      news('p3', 'SEC adopts climate disclosure rules', 'Scope 1 and 2.', 1),
    ]);
    const ids = (
      await h.call('GET', '/boards/home/v2', { token: a.token })
    ).body.results.documents.map((d: { deeplink: string }) => d.deeplink);
    const cursor = (await changesOf(h, a.token)).at(-1)!.seq;
    const put = (token: string, deeplinks: string[], status: string) =>
      h.call('PUT', '/doc/read_status', { token, body: { deeplinks, status } });

    expect((await put(a.token, [ids[0], ids[1], ids[1]], 'read')).body).toEqual({ updated: 2 });
    expect((await put(a.token, [ids[0]], 'read')).body).toEqual({ updated: 0 });
    const readChanges = (await changesOf(h, a.token, cursor)).filter(
      (c) => c.entity === 'read_status',
    );
    expect(
      readChanges.map((c) => c.data).sort((x, y) => x.deeplink.localeCompare(y.deeplink)),
    ).toEqual([ids[0], ids[1]].sort().map((deeplink) => ({ deeplink, read: true })));
    expect((await h.call('GET', `/doc/read_Status/${ids[0]}`, { token: a.token })).body).toEqual({
      deeplink: ids[0],
      status: 'read',
    });
    expect(
      (await h.call('GET', `/doc/read_Status/${ids[0]}`, { token: b.token })).body.status,
    ).toBe('unread');
    const list = await h.call('GET', '/doc/read_status?limit=1', { token: a.token });
    expect(list.body.deeplinks).toHaveLength(1);
    expect(list.body.has_more).toBe(true);
    const rest = await h.call('GET', `/doc/read_status?after=${list.body.cursor}`, {
      token: a.token,
    });
    expect([...list.body.deeplinks, ...rest.body.deeplinks].sort()).toEqual(
      [ids[0], ids[1]].sort(),
    );
    expect(rest.body.has_more).toBe(false);

    expect((await put(a.token, [ids[0]], 'unread')).body).toEqual({ updated: 1 });
    expect(
      (await h.call('GET', `/doc/read_Status/${ids[0]}`, { token: a.token })).body.status,
    ).toBe('unread');
    expect((await changesOf(h, a.token, cursor)).at(-1)).toMatchObject({
      entity: 'read_status',
      data: { deeplink: ids[0], read: false },
    });
  });

  it("refuses malformed read-status calls and never marks a document the user can't see", async () => {
    const a = await newUser(h);
    const stranger = await newUser(h);
    await follow(h, a.token, 'demo_health_review');
    await addDocs(h, 'demo_health_review', [news('h1', 'Konark gets USFDA approval', 'Generic.')]);
    const [{ deeplink }] = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents;
    await makePrivateTo(h, 'demo_health_review', a.userId);
    const put = (body: unknown) =>
      h.call('PUT', '/doc/read_status', { token: stranger.token, body });
    expect((await put({ deeplinks: [deeplink], status: 'read' })).body).toEqual({ updated: 0 });
    expect(
      (await h.call('GET', `/doc/read_Status/${deeplink}`, { token: stranger.token })).status,
    ).toBe(404);
    const empty = await put({ deeplinks: [], status: 'read' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('deeplinks: deeplinks must not be empty');
    const tooMany = await put({
      deeplinks: Array.from({ length: 501 }, (_, i) => `d${i}`),
      status: 'read',
    });
    expect(tooMany.body.message).toBe('deeplinks: deeplinks holds at most 500 documents');
    expect((await put({ deeplinks: [deeplink], status: 'seen' })).status).toBe(400);
  });
});
