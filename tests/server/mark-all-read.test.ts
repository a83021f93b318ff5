import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDocs, changesOf, follow, HOUR, news, newUser, T0 } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * Mark all read (POST /boards/{id}/read-all) and its undo (POST /doc/read_status/unread): one
 * request each, the caller's read state only, documents dated up to `before`, at most 5000.
 */
describe.each(STORAGES)('mark all read on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const readOf = async (token: string, deeplink: string) =>
    (await h.call('GET', `/doc/read_Status/${deeplink}`, { token })).body.status as string;

  it("marks exactly the feed's unread documents up to `before`, for the caller only, and undoes it", async () => {
    const a = await newUser(h);
    const b = await newUser(h);
    await follow(h, a.token, 'demo_research');
    await follow(h, b.token, 'demo_research');
    await addDocs(h, 'demo_research', [
      news('mar-1', 'Steel demand outlook', 'Demand holds.', 5),
      news('mar-2', 'Cement prices firm', 'Prices rise.', 4),
      news('mar-3', 'Power tariffs revised', 'New slabs.', 3),
      news('mar-4', 'Late: port volumes', 'Volumes up.', 1),
    ]);
    const docs = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents as Array<{ deeplink: string; title: string }>;
    const id = (title: string) => docs.find((d) => d.title === title)!.deeplink;
    // Already read: not marked again, so an undo leaves it read.
    await h.call('PUT', '/doc/read_status', {
      token: a.token,
      body: { deeplinks: [id('Cement prices firm')], status: 'read' },
    });
    const cursor = (await changesOf(h, a.token)).at(-1)!.seq;

    // Up to two hours before T0: the newest document (one hour before) stays unread.
    const marked = await h.call('POST', '/boards/home/read-all', {
      token: a.token,
      body: { before: T0 - 2 * HOUR },
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({
      deeplinks: [id('Power tariffs revised'), id('Steel demand outlook')].sort(),
      has_more: false,
    });
    expect(await readOf(a.token, id('Late: port volumes'))).toBe('unread');
    expect(await readOf(a.token, id('Steel demand outlook'))).toBe('read');
    // Someone else's read state is untouched.
    expect(await readOf(b.token, id('Steel demand outlook'))).toBe('unread');
    // One change per document marked, for the other tabs and devices.
    const changes = (await changesOf(h, a.token, cursor)).filter((c) => c.entity === 'read_status');
    expect(changes.map((c) => c.data).sort((x, y) => x.deeplink.localeCompare(y.deeplink))).toEqual(
      [id('Power tariffs revised'), id('Steel demand outlook')]
        .sort()
        .map((deeplink) => ({ deeplink, read: true })),
    );

    // Undo: exactly those, unread again, in one request; the one read before stays read.
    const undone = await h.call('POST', '/doc/read_status/unread', {
      token: a.token,
      body: { deeplinks: marked.body.deeplinks },
    });
    expect(undone.body).toEqual({ updated: 2 });
    expect(await readOf(a.token, id('Steel demand outlook'))).toBe('unread');
    expect(await readOf(a.token, id('Power tariffs revised'))).toBe('unread');
    expect(await readOf(a.token, id('Cement prices firm'))).toBe('read');
  });

  it('keeps to a tab or a source of the feed, and to feeds the caller owns', async () => {
    const a = await newUser(h);
    const stranger = await newUser(h);
    await follow(h, a.token, 'demo_policy_brief');
    await follow(h, a.token, 'demo_markets_wire');
    await addDocs(h, 'demo_policy_brief', [news('mas-1', 'Policy one', 'Text.', 2)]);
    await addDocs(h, 'demo_markets_wire', [news('mas-2', 'Wire one', 'Text.', 2)]);
    const docs = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents as Array<{ deeplink: string; title: string; source: string }>;
    const policy = docs.find((d) => d.title === 'Policy one')!;
    const wire = docs.find((d) => d.title === 'Wire one')!;

    const bySource = await h.call('POST', '/boards/home/read-all', {
      token: a.token,
      body: { before: T0, source: 'demo_policy_brief' },
    });
    expect(bySource.body.deeplinks).toEqual([policy.deeplink]);
    expect(await readOf(a.token, wire.deeplink)).toBe('unread');

    // A board id that is not the caller's: 404, nothing marked.
    const foreign = await h.call('POST', '/boards/no-such-board/read-all', {
      token: stranger.token,
      body: { before: T0 },
    });
    expect(foreign.status).toBe(404);
    expect(await readOf(a.token, wire.deeplink)).toBe('unread');

    const unknownTab = await h.call('POST', '/boards/home/read-all', {
      token: a.token,
      body: { before: T0, tab: 'gossip' },
    });
    expect(unknownTab.status).toBe(400);
    expect(unknownTab.body.message).toMatch(/^tab: /);
  });
});

/** The bound is the route's, not the storage's: one backend. */
describe('mark all read, bounded', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("keeps the reader's 'open marks read' setting, off once turned off", async () => {
    const a = await newUser(h);
    const put = (body: unknown) =>
      h.call('PUT', '/user/preferences', { token: a.token, body, key: `k-${Math.random()}` });
    expect((await put({ open_marks_read: false })).body).toEqual({
      nav_state: null,
      overlay_widths: {},
      open_marks_read: false,
    });
    // Another field's patch leaves it as it is.
    await put({ nav_state: 'closed' });
    expect((await h.call('GET', '/user/preferences', { token: a.token })).body).toEqual({
      nav_state: 'closed',
      overlay_widths: {},
      open_marks_read: false,
    });
    expect((await put({ open_marks_read: 'no' })).status).toBe(400);
  });

  it('marks at most 5000 in one request, newest first, and says more remain', async () => {
    const a = await newUser(h);
    await follow(h, a.token, 'demo_india_filings');
    const many = Array.from({ length: 5003 }, (_, i) =>
      news(`bulk-${i}`, `Filing ${i}`, 'Text.', 10 + i / 100),
    );
    await addDocs(h, 'demo_india_filings', many);
    const first = await h.call('POST', '/boards/home/read-all', {
      token: a.token,
      body: { before: T0 },
    });
    expect(first.body.deeplinks).toHaveLength(5000);
    expect(first.body.has_more).toBe(true);
    const second = await h.call('POST', '/boards/home/read-all', {
      token: a.token,
      body: { before: T0 },
    });
    expect(second.body.deeplinks).toHaveLength(3);
    expect(second.body.has_more).toBe(false);
    const oldest = (
      await h.call('GET', '/boards/home/v2?sort=oldest&num_docs=3', { token: a.token })
    ).body.results.documents.map((d: { deeplink: string }) => d.deeplink);
    expect(second.body.deeplinks.sort()).toEqual([...oldest].sort());
  }, 60_000);
});
