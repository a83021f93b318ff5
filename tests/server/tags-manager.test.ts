import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDocs, changesOf, follow, news, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * The Tags Manager's calls (contract/tags.ts): rename and merge, scoped to the caller, on
 * every storage backend (the merge moves links in one INSERT ... SELECT).
 */
describe.each(STORAGES)('the Tags Manager on %s', (storage) => {
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
      news('tm-1', 'Steel demand outlook', 'Demand holds.', 3),
      news('tm-2', 'Cement prices firm', 'Prices rise.', 2),
      news('tm-3', 'Power tariffs revised', 'New slabs.', 1),
    ]);
    const feed = (await h.call('GET', '/boards/home/v2', { token: a.token })).body.results
      .documents as Array<{ deeplink: string }>;
    docs = feed.map((d) => d.deeplink).sort();
    for (const [id, tag] of [
      ['t-steel', 'Steel'],
      ['t-metals', 'Metals'],
      ['t-power', 'Power'],
    ]) {
      await h.call('POST', '/tags', { token: a.token, body: { id, tag } });
    }
    // docs[0]: Steel; docs[1]: Steel + Metals; docs[2]: Metals + Power.
    const set = (deeplink: string, tags: string[]) =>
      h.call('POST', `/tag/${deeplink}`, { token: a.token, body: { tags } });
    await set(docs[0], ['t-steel']);
    await set(docs[1], ['t-steel', 't-metals']);
    await set(docs[2], ['t-metals', 't-power']);
  });
  afterAll(async () => {
    await h?.close();
  });

  const tagsOf = async (token: string, deeplink: string) =>
    ((await h.call('GET', `/tag/${deeplink}`, { token })).body.user_tags as Array<{ id: string }>)
      .map((t) => t.id)
      .sort();

  it('renames a tag, refusing a name another tag has', async () => {
    const res = await h.call('POST', '/tag/rename', {
      token: a.token,
      body: { tag_id: 't-power', tag: '  Power & Utilities ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.tag).toEqual({
      id: 't-power',
      name: 'Power & Utilities',
      created_at: '2025-03-03T10:00:00.000Z',
    });
    const clash = await h.call('POST', '/tag/rename', {
      token: a.token,
      body: { tag_id: 't-power', tag: 'STEEL' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(
      'a tag named "Steel" already exists; merge the two tags instead',
    );
    const empty = await h.call('POST', '/tag/rename', {
      token: a.token,
      body: { tag_id: 't-power', tag: ' ' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('tag must not be empty');
    await h.call('POST', '/tags', { token: a.token, body: { tag: 'needl_internal_bookmark' } });
    const bookmark = await h.call('POST', '/tag/rename', {
      token: a.token,
      body: { tag_id: 'bookmark', tag: 'Saved' },
    });
    expect(bookmark.status).toBe(400);
    expect(bookmark.body.message).toBe('tag_id: the bookmark tag cannot be renamed or merged');
    const last = (await changesOf(h, a.token)).filter((c) => c.entity === 'tag').at(-2);
    expect([last?.entity_id, last?.op]).toEqual(['t-power', 'upsert']);
  });

  it('merges a tag into another: its documents carry the other once, and it goes', async () => {
    const res = await h.call('POST', '/tag/merge', {
      token: a.token,
      body: { from: 't-steel', into: 't-metals' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tag: { id: 't-metals', name: 'Metals', created_at: '2025-03-03T10:00:00.000Z' },
      moved: 2,
    });
    expect(await tagsOf(a.token, docs[0])).toEqual(['t-metals']);
    expect(await tagsOf(a.token, docs[1])).toEqual(['t-metals']);
    expect(await tagsOf(a.token, docs[2])).toEqual(['t-metals', 't-power']);
    const list = await h.call('GET', '/tag/user-tags', { token: a.token });
    expect(list.body.user_tags.map((t: { id: string }) => t.id)).toEqual([
      'bookmark',
      't-metals',
      't-power',
    ]);
    const change = (await changesOf(h, a.token)).at(-1);
    expect(change).toMatchObject({
      entity: 'tag_merge',
      entity_id: 't-steel',
      op: 'upsert',
      data: { from: 't-steel', into: 't-metals' },
    });
    const self = await h.call('POST', '/tag/merge', {
      token: a.token,
      body: { from: 't-metals', into: 't-metals' },
    });
    expect(self.status).toBe(400);
    expect(self.body.message).toContain('into must differ from from');
    const gone = await h.call('POST', '/tag/merge', {
      token: a.token,
      body: { from: 't-steel', into: 't-metals' },
    });
    expect(gone.status).toBe(404);
  });

  it('lets another user rename or merge none of it', async () => {
    const rename = await h.call('POST', '/tag/rename', {
      token: b.token,
      body: { tag_id: 't-metals', tag: 'Mine' },
    });
    expect(rename.status).toBe(404);
    const merge = await h.call('POST', '/tag/merge', {
      token: b.token,
      body: { from: 't-power', into: 't-metals' },
    });
    expect(merge.status).toBe(404);
    expect(await tagsOf(a.token, docs[2])).toEqual(['t-metals', 't-power']);
    const list = await h.call('GET', '/tag/user-tags', { token: a.token });
    expect(list.body.user_tags.map((t: { name: string }) => t.name)).toEqual([
      'needl_internal_bookmark',
      'Metals',
      'Power & Utilities',
    ]);
    expect((await changesOf(h, b.token)).filter((c) => c.entity.startsWith('tag'))).toEqual([]);
  });
});
