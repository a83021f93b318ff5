import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import type { HeadlessTab } from '../../worker/headless';
import {
  createFaultyFetch,
  createGate,
  errorResponse,
  newUser,
  serverView,
  setupWorkspaceSuite,
} from './support';

/** Tags and bookmarks: optimistic through the outbox, the same in every tab, kept by the feed. */
const suite = setupWorkspaceSuite({ ingest: false });

const docsOf = async (tab: HeadlessTab) =>
  (
    await tab.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 3,
    })
  ).rows.map((r) => r.doc_id);
const linkChanged = (deeplink: string) => (e: WorkerEvent) =>
  e.type === 'changed' && e.store === 'document_tags' && (e.keys?.includes(deeplink) ?? false);
const tagNames = async (tab: HeadlessTab) =>
  (await tab.api.call('tags.list', {})).map((t) => t.name);

async function twoTabs() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  await a.api.call('sources.follow', { key: 'demo_markets_wire' });
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const docs = await docsOf(a);
  expect(docs).toHaveLength(3);
  expect(await a.api.call('tags.list', {})).toEqual([]);
  return { user, ws, a, b, server, faulty, docs };
}

describe('tags', () => {
  it('creates and links at once in every tab, before the server answers, and keeps it', async () => {
    const { ws, a, b, server, faulty, docs } = await twoTabs();
    const gate = createGate();
    faulty.state.rule = (url, init) =>
      init.method === 'POST' && url.includes('/tag/') ? { hold: gate.opened } : null;

    const since = b.events.length;
    // Created and linked in a row: both queued, the link sent after the tag.
    // Made in the picker and applied at once: one request creates the tag, then links it.
    const linked = a.api.call('tags.setDocument', {
      deeplink: docs[0],
      tag_ids: ['tag-energy'],
      create: [{ id: 'tag-energy', tag: '  Energy ' }],
    });
    await b.waitFor(linkChanged(docs[0]), { since });
    expect(await tagNames(b)).toEqual(['Energy']);
    expect(await b.api.call('tags.ofDocuments', { deeplinks: [docs[0], docs[1]] })).toEqual({
      [docs[0]]: ['tag-energy'],
      [docs[1]]: [],
    });
    expect(await b.api.call('tags.documents', { limit: 10 })).toEqual([docs[0]]);

    gate.open();
    await linked;
    await ws.workspace.idle();
    expect(await server.get('/tag/user-tags')).toMatchObject({
      user_tags: [{ id: 'tag-energy', name: 'Energy' }],
    });
    expect(await server.get('/tag/links')).toEqual({
      links: [{ deeplink: docs[0], tag_ids: ['tag-energy'] }],
      cursor: docs[0],
      has_more: false,
    });
  });

  it('bookmarks: the reserved tag created first, then the document; unbookmarks', async () => {
    const { ws, a, b, server, docs } = await twoTabs();
    // One request: the reserved tag created first, then the link.
    await a.api.call('tags.setDocument', {
      deeplink: docs[1],
      tag_ids: ['bookmark'],
      create: [{ id: 'bookmark', tag: 'needl_internal_bookmark' }],
    });
    expect(await tagNames(b)).toEqual(['needl_internal_bookmark']);
    await ws.workspace.idle();
    expect(await b.api.call('tags.documents', { tag_id: 'bookmark', limit: 10 })).toEqual([
      docs[1],
    ]);
    expect(await server.get('/source/needlbox')).toEqual({
      results: [
        { key: 'bookmarks', label: 'Bookmarks', count: 1 },
        { key: 'tags', label: 'Tags', count: 0 },
      ],
    });
    await b.api.call('tags.setDocument', { deeplink: docs[1], tag_ids: [] });
    expect(await a.api.call('tags.documents', { tag_id: 'bookmark', limit: 10 })).toEqual([]);
    await ws.workspace.idle();
    expect(await server.get('/tag/links')).toEqual({ links: [], cursor: null, has_more: false });
  });

  it('rolls a refused write back in every tab, with the server message', async () => {
    const { ws, a, b, faulty, docs } = await twoTabs();
    await a.api.call('tags.create', { id: 'tag-oil', tag: 'Oil' });
    faulty.state.rule = (url, init) =>
      init.method === 'POST' && url.includes('/tag/')
        ? errorResponse(400, 'bad_request', 'tags: no such tag: tag-oil')
        : null;
    const since = b.events.length;
    await expect(
      a.api.call('tags.setDocument', { deeplink: docs[2], tag_ids: ['tag-oil'] }),
    ).rejects.toThrow('tags: no such tag: tag-oil');
    const first = await b.waitFor(linkChanged(docs[2]), { since });
    await b.waitFor(linkChanged(docs[2]), { since: b.events.indexOf(first) + 1 });
    await b.waitFor(
      (e) => e.type === 'toast' && e.kind === 'error' && e.message === 'tags: no such tag: tag-oil',
      { since },
    );
    expect(await b.api.call('tags.ofDocuments', { deeplinks: [docs[2]] })).toEqual({
      [docs[2]]: [],
    });
    await ws.workspace.idle();
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });

  it('takes tags made elsewhere: pulled on first use, then by the change feed', async () => {
    const { user, server, docs } = await twoTabs();
    await server.send('POST', '/tags', { tag: 'Banks', id: 'tag-banks' });
    await server.send('POST', `/tag/${docs[0]}`, { tags: ['tag-banks'] });

    const other = suite.workspace();
    const c = await other.tab();
    await c.api.call('auth.signIn', { email: user.email, password: user.password });
    expect(await tagNames(c)).toEqual(['Banks']);
    expect(await c.api.call('tags.ofDocuments', { deeplinks: [docs[0]] })).toEqual({
      [docs[0]]: ['tag-banks'],
    });

    await server.send('POST', '/tags', { tag: 'Steel', id: 'tag-steel' });
    await server.send('POST', `/tag/${docs[1]}`, { tags: ['tag-steel'] });
    await server.send('POST', '/tag/delete', { tag_id: 'tag-banks' });
    const since = c.events.length;
    await c.api.call('sync.pull', {});
    await c.waitFor(linkChanged(docs[0]), { since });
    expect(await tagNames(c)).toEqual(['Steel']);
    expect(await c.api.call('tags.ofDocuments', { deeplinks: [docs[0], docs[1]] })).toEqual({
      [docs[0]]: [],
      [docs[1]]: ['tag-steel'],
    });
  });
});
