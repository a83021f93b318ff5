import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDocs, changesOf, follow, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * Tags and bookmarks (contract/tags.ts): the user's tags, a document's tags, the links pull and
 * the needlbox counts; every call scoped to the caller, on every storage backend.
 */
describe.each(STORAGES)('tags on %s', (storage) => {
  let h: Harness;
  let a: { token: string };
  let b: { token: string };
  let docs: string[];
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    a = await newUser(h);
    b = await newUser(h, 'Grace Hopper');
    await follow(h, a.token, 'demo_research');
    await follow(h, b.token, 'demo_research');
    await addDocs(h, 'demo_research', [
      news('tag-1', 'Steel demand outlook', 'Demand holds.', 3),
      news('tag-2', 'Cement prices firm', 'Prices rise.', 2),
      news('tag-3', 'Power tariffs revised', 'New slabs.', 1),
    ]);
    const feed = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents as Array<{ deeplink: string }>;
    docs = feed.map((d) => d.deeplink).sort();
  });
  afterAll(async () => {
    await h?.close();
  });

  const create = (token: string, body: unknown) => h.call('POST', '/tags', { token, body });

  it('creates tags trimmed, once per name case-insensitively, and lists them', async () => {
    const made = await create(a.token, { tag: '  Energy ', id: 'tag-energy' });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      tag: { id: 'tag-energy', name: 'Energy', created_at: expect.any(String) },
      created: true,
    });
    // The same name again (another case, another id): the existing tag, not a second one.
    const again = await create(a.token, { tag: 'ENERGY', id: 'other' });
    expect(again.body).toEqual({ tag: made.body.tag, created: false });
    // The reserved bookmark tag always takes the id "bookmark".
    const bookmark = await create(a.token, { tag: 'needl_internal_bookmark', id: 'x1' });
    expect(bookmark.body.tag.id).toBe('bookmark');
    const list = await h.call('GET', '/tag/user-tags', { token: a.token });
    // Oldest first; made at the same moment (the test clock stands still): by id.
    expect(list.body.user_tags.map((t: { name: string }) => t.name)).toEqual([
      'needl_internal_bookmark',
      'Energy',
    ]);
    const changes = (await changesOf(h, a.token)).filter((c) => c.entity === 'tag');
    expect(changes.map((c) => [c.entity_id, c.op])).toEqual([
      ['tag-energy', 'upsert'],
      ['bookmark', 'upsert'],
    ]);
  });

  it('refuses bad input with a message naming what is wrong', async () => {
    const empty = await create(a.token, { tag: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('tag must not be empty');
    const long = await create(a.token, { tag: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('tag must be at most 100 characters');
    const reservedId = await create(a.token, { tag: 'Oil', id: 'bookmark' });
    expect(reservedId.status).toBe(400);
    expect(reservedId.body.message).toBe('id "bookmark" is reserved for the bookmark tag');
    const takenId = await create(a.token, { tag: 'Oil', id: 'tag-energy' });
    expect(takenId.status).toBe(409);
    const tooMany = await h.call('POST', `/tag/${docs[0]}`, {
      token: a.token,
      body: { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('tags holds at most 50 tags');
  });

  it("sets a document's tags, reads them back, pulls the links and counts the needlbox", async () => {
    const set = await h.call('POST', `/tag/${docs[0]}`, {
      token: a.token,
      body: { tags: ['tag-energy', 'bookmark', 'tag-energy'] },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      deeplink: docs[0],
      tag_ids: ['bookmark', 'tag-energy'],
      created: [],
    });
    await h.call('POST', `/tag/${docs[1]}`, { token: a.token, body: { tags: ['bookmark'] } });
    const read = await h.call('GET', `/tag/${docs[0]}`, { token: a.token });
    expect(read.body.deep_link).toBe(docs[0]);
    expect(read.body.user_tags.map((t: { name: string }) => t.name)).toEqual([
      'needl_internal_bookmark',
      'Energy',
    ]);
    expect(read.body.shared_tags).toEqual([]);
    const unknown = await h.call('POST', `/tag/${docs[2]}`, {
      token: a.token,
      body: { tags: ['nope'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('tags: no such tag: nope');

    const page1 = await h.call('GET', '/tag/links?limit=1', { token: a.token });
    expect(page1.body).toEqual({
      links: [{ deeplink: docs[0], tag_ids: ['bookmark', 'tag-energy'] }],
      cursor: docs[0],
      has_more: true,
    });
    const page2 = await h.call('GET', `/tag/links?limit=1&after=${docs[0]}`, { token: a.token });
    expect(page2.body).toEqual({
      links: [{ deeplink: docs[1], tag_ids: ['bookmark'] }],
      cursor: docs[1],
      has_more: false,
    });
    const box = await h.call('GET', '/source/needlbox', { token: a.token });
    expect(box.body).toEqual({
      results: [
        { key: 'bookmarks', label: 'Bookmarks', count: 2 },
        { key: 'tags', label: 'Tags', count: 1 },
      ],
    });
    const linkChanges = (await changesOf(h, a.token)).filter((c) => c.entity === 'document_tags');
    // Each with its document's card (another device's tag page lists it from its mirror).
    expect(linkChanges.map((c) => c.data)).toMatchObject([
      { deeplink: docs[0], tag_ids: ['bookmark', 'tag-energy'], card: { doc_id: docs[0] } },
      { deeplink: docs[1], tag_ids: ['bookmark'], card: { doc_id: docs[1] } },
    ]);
    // With cards=true, a page of links carries them too.
    const withCards = await h.call('GET', '/tag/links?limit=1&cards=true', { token: a.token });
    expect(withCards.body).toMatchObject({
      links: [
        { deeplink: docs[0], tag_ids: ['bookmark', 'tag-energy'], card: { doc_id: docs[0] } },
      ],
      cursor: docs[0],
      has_more: true,
    });
  });

  it('lets another user read, list or change none of it', async () => {
    // Listing: b has no tags, no links, an empty needlbox.
    expect((await h.call('GET', '/tag/user-tags', { token: b.token })).body).toEqual({
      user_tags: [],
    });
    expect((await h.call('GET', '/tag/links', { token: b.token })).body).toEqual({
      links: [],
      cursor: null,
      has_more: false,
    });
    expect((await h.call('GET', '/source/needlbox', { token: b.token })).body).toEqual({
      results: [
        { key: 'bookmarks', label: 'Bookmarks', count: 0 },
        { key: 'tags', label: 'Tags', count: 0 },
      ],
    });
    // Reading a's tags on a document both can see: b sees only b's own (none).
    expect((await h.call('GET', `/tag/${docs[0]}`, { token: b.token })).body.user_tags).toEqual([]);
    // Changing: a's tag id is unknown to b, for linking and deleting.
    const link = await h.call('POST', `/tag/${docs[0]}`, {
      token: b.token,
      body: { tags: ['tag-energy'] },
    });
    expect(link.status).toBe(400);
    const del = await h.call('POST', '/tag/delete', {
      token: b.token,
      body: { tag_id: 'tag-energy' },
    });
    expect(del.status).toBe(404);
    // b's own tag of the same name and id is b's, and clearing b's tags leaves a's.
    const mine = await create(b.token, { tag: 'Energy', id: 'tag-energy' });
    expect(mine.body.created).toBe(true);
    await h.call('POST', `/tag/${docs[0]}`, { token: b.token, body: { tags: [] } });
    expect(
      (await h.call('GET', `/tag/${docs[0]}`, { token: a.token })).body.user_tags,
    ).toHaveLength(2);
    const bChanges = (await changesOf(h, b.token)).filter((c) =>
      ['tag', 'document_tags'].includes(c.entity),
    );
    expect(bChanges.map((c) => [c.entity, c.entity_id])).toEqual([['tag', 'tag-energy']]);
    // Without a session nothing answers.
    expect((await h.call('GET', '/tag/user-tags')).status).toBe(401);
    // A document nobody follows here: 404 for reading and tagging.
    expect((await h.call('GET', '/tag/no-such-doc', { token: a.token })).status).toBe(404);
    expect(
      (await h.call('POST', '/tag/no-such-doc', { token: a.token, body: { tags: [] } })).status,
    ).toBe(404);
  });

  it('deletes a tag with its links, recording one change', async () => {
    const del = await h.call('POST', '/tag/delete', {
      token: a.token,
      body: { tag_id: 'tag-energy' },
    });
    expect(del.body).toEqual({ deleted: 1 });
    expect((await h.call('GET', `/tag/${docs[0]}`, { token: a.token })).body.user_tags).toEqual([
      expect.objectContaining({ id: 'bookmark' }),
    ]);
    const last = (await changesOf(h, a.token)).at(-1)!;
    expect([last.entity, last.entity_id, last.op]).toEqual(['tag', 'tag-energy', 'delete']);
    // b's tag of the same id is untouched.
    expect((await h.call('GET', '/tag/user-tags', { token: b.token })).body.user_tags).toHaveLength(
      1,
    );
  });
  it('creates the tags a link names first, in the same request', async () => {
    const set = await h.call('POST', `/tag/${docs[2]}`, {
      token: a.token,
      body: {
        tags: ['new-oil', 'again-bookmark'],
        create: [
          { id: 'new-oil', tag: ' Oil ' },
          // A name the user holds: it resolves to the existing tag's id.
          { id: 'again-bookmark', tag: 'NEEDL_internal_bookmark' },
        ],
      },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      deeplink: docs[2],
      tag_ids: ['bookmark', 'new-oil'],
      created: [
        { id: 'new-oil', name: 'Oil', created_at: expect.any(String) },
        { id: 'bookmark', name: 'needl_internal_bookmark', created_at: expect.any(String) },
      ],
    });
    // A refused link creates nothing: the request is one transaction.
    const refused = await h.call('POST', `/tag/${docs[2]}`, {
      token: a.token,
      body: { tags: ['nope'], create: [{ id: 'new-gas', tag: 'Gas' }] },
    });
    expect(refused.status).toBe(400);
    const names = (await h.call('GET', '/tag/user-tags', { token: a.token })).body.user_tags.map(
      (t: { name: string }) => t.name,
    );
    expect(names).toEqual(['needl_internal_bookmark', 'Oil']);
  });
});
