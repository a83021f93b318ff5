import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import { createFaultyFetch, createGate, newUser, setupWorkspaceSuite } from './support';
import { newsItem, serverDocs, type ServerDocs } from './feed-support';

/**
 * A tag page is a feed (issue 21): tags.window reads a window of a tag at any depth from the
 * mirror's (tag, time) index, newest document first, with the documents' cards pulled with
 * the links (no document fetched one by one), offline too, and a tag set in one tab is in the
 * other tab's window before the server has answered.
 */
const suite = setupWorkspaceSuite({ ingest: false });
const SOURCE = 'demo_markets_wire';
const TAGGED = 120;
const BASE = 1_700_000_000;

let docs: ServerDocs;
beforeAll(async () => {
  docs = await serverDocs(suite.env);
});
afterAll(() => docs.close());

const titles = (rows: Array<{ card: { title: string } | null }>) =>
  rows.map((r) => r.card?.title ?? null);

/**
 * A user following SOURCE whose tag "Deep" holds TAGGED documents ("Deep 0" oldest to
 * "Deep 119" newest), linked in the server's database; then a new device signed in.
 */
async function deepTag() {
  const user = newUser();
  const first = suite.workspace();
  const setup = await first.tab('setup');
  await setup.api.call('auth.signUp', user);
  await setup.api.call('sources.follow', { key: SOURCE });
  const items = Array.from({ length: TAGGED }, (_, i) =>
    newsItem(`deep-${user.email}-${i}`, `Deep ${i}`, BASE + i * 60),
  );
  await docs.insert(SOURCE, items);
  const { id: userId } = await docs.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirstOrThrow();
  const ids = await docs.db
    .selectFrom('documents')
    .select('id')
    .where('title', 'like', 'Deep %')
    .where('url', 'like', `https://news.example.com/deep-${user.email}-%`)
    .execute();
  expect(ids).toHaveLength(TAGGED);
  const at = new Date(BASE * 1000).toISOString();
  await docs.db
    .insertInto('user_tags')
    .values({ user_id: userId, id: 't-deep', name: 'Deep', name_key: 'deep', created_at: at })
    .execute();
  await docs.db
    .insertInto('document_tags')
    .values(
      ids.map((d) => ({ user_id: userId, tag_id: 't-deep', document_id: d.id, created_at: at })),
    )
    .execute();

  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signIn', { email: user.email, password: user.password });
  return { ws, a, b, faulty };
}

describe('tags.window', () => {
  it('reads a window deep in a tag, newest first, from the links alone, and offline', async () => {
    const { a, faulty } = await deepTag();
    const deep = await a.api.call('tags.window', { tag_id: 't-deep', offset: 100, count: 5 });
    expect(deep.total).toBe(120);
    expect(deep.offset).toBe(100);
    expect(titles(deep.rows)).toEqual(['Deep 19', 'Deep 18', 'Deep 17', 'Deep 16', 'Deep 15']);
    expect(deep.rows.every((r) => r.card?.read === false)).toBe(true);
    // The documents' cards came with the links: none was fetched on its own.
    expect(faulty.state.sent.filter((s) => /^GET \/api\/doc\/(?!read_status)/.test(s))).toEqual([]);
    expect(faulty.state.sent.filter((s) => s.startsWith('GET /api/tag/links'))).toHaveLength(1);

    // "Any tag but the bookmark" is the same list here; its last window ends the tag.
    const last = await a.api.call('tags.window', { offset: 117, count: 50 });
    expect(last.total).toBe(120);
    expect(titles(last.rows)).toEqual(['Deep 2', 'Deep 1', 'Deep 0']);

    // Offline: the mirror answers any window.
    faulty.state.offline = true;
    const offline = await a.api.call('tags.window', { tag_id: 't-deep', offset: 60, count: 2 });
    expect(titles(offline.rows)).toEqual(['Deep 59', 'Deep 58']);
    expect(offline.total).toBe(120);
  });

  it("puts a document tagged in one tab into the other tab's window before the server answers", async () => {
    const { a, b, faulty } = await deepTag();
    const feed = await a.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 400,
    });
    const untagged = feed.rows.find((r) => !r.title.startsWith('Deep '));
    expect(untagged).toBeDefined();
    const card = untagged!;
    expect((await b.api.call('tags.window', { tag_id: 't-deep', offset: 0, count: 1 })).total).toBe(
      120,
    );

    const gate = createGate();
    faulty.state.rule = (url, init) =>
      init.method === 'POST' && url.includes('/tag/') ? { hold: gate.opened } : null;
    const since = b.events.length;
    const { read: _read, ...plain } = card;
    let answered = false;
    const tagged = a.api
      .call('tags.setDocument', { deeplink: card.deeplink, tag_ids: ['t-deep'], card: plain })
      .then(() => (answered = true));
    await b.waitFor(
      (e: WorkerEvent) =>
        e.type === 'changed' &&
        e.store === 'document_tags' &&
        (e.keys?.includes(card.deeplink) ?? false),
      { since },
    );
    // The server's answer is still held back.
    expect(answered).toBe(false);
    const all = await b.api.call('tags.window', { tag_id: 't-deep', offset: 0, count: 121 });
    expect(all.total).toBe(121);
    const place = all.rows.findIndex((r) => r.deeplink === card.deeplink);
    expect(place).toBeGreaterThanOrEqual(0);
    expect(all.rows[place].card?.title).toBe(card.title);
    // In its place by time among the tag's documents.
    const times = all.rows.map((r) => r.card!.unix);
    expect(times).toEqual([...times].sort((x, y) => y - x));

    gate.open();
    await tagged;
    // Confirmed: the record keeps its card.
    const after = await b.api.call('tags.window', { tag_id: 't-deep', offset: place, count: 1 });
    expect(after.rows[0].card?.title).toBe(card.title);
  });
});
