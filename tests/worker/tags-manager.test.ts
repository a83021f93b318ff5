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

/** The Tags Manager's ops: counts from the mirror, rename and merge optimistic with rollback. */
const suite = setupWorkspaceSuite({ ingest: false });

const tagsChanged = (e: WorkerEvent) => e.type === 'changed' && e.store === 'tags';
const names = async (tab: HeadlessTab) => (await tab.api.call('tags.list', {})).map((t) => t.name);

async function tagged() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  await a.api.call('sources.follow', { key: 'demo_markets_wire' });
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  const docs = (
    await a.api.call('feed.window', {
      board: 'home',
      tab: null,
      sort: 'latest',
      offset: 0,
      count: 3,
    })
  ).rows.map((r) => r.doc_id);
  expect(docs).toHaveLength(3);
  await a.api.call('tags.create', { id: 't-steel', tag: 'Steel' });
  await a.api.call('tags.create', { id: 't-metals', tag: 'Metals' });
  await a.api.call('tags.setDocument', { deeplink: docs[0], tag_ids: ['t-steel'] });
  await a.api.call('tags.setDocument', { deeplink: docs[1], tag_ids: ['t-steel', 't-metals'] });
  await a.api.call('tags.setDocument', { deeplink: docs[2], tag_ids: ['t-metals'] });
  await ws.workspace.idle();
  return { ws, a, b, server, faulty, docs };
}

describe('the Tags Manager', () => {
  it('counts each tag’s documents from the mirror', async () => {
    const { b } = await tagged();
    expect(await b.api.call('tags.counts', {})).toEqual({ 't-steel': 2, 't-metals': 2 });
  });

  it('renames at once in every tab, before the server answers, and keeps it', async () => {
    const { ws, a, b, server, faulty } = await tagged();
    const gate = createGate();
    faulty.state.rule = (url) => (url.includes('/tag/rename') ? { hold: gate.opened } : null);
    const since = b.events.length;
    const renamed = a.api.call('tags.rename', { tag_id: 't-steel', tag: ' Steel & Iron ' });
    await b.waitFor(tagsChanged, { since });
    expect(await names(b)).toEqual(['Steel & Iron', 'Metals']);
    gate.open();
    await renamed;
    await ws.workspace.idle();
    expect(await server.get('/tag/user-tags')).toMatchObject({
      user_tags: [
        { id: 't-steel', name: 'Steel & Iron' },
        { id: 't-metals', name: 'Metals' },
      ],
    });
  });

  it('puts a refused rename back in every tab, with the server message', async () => {
    const { ws, a, b, faulty } = await tagged();
    faulty.state.rule = (url) =>
      url.includes('/tag/rename')
        ? errorResponse(
            409,
            'conflict',
            'a tag named "Metals" already exists; merge the two tags instead',
          )
        : null;
    const since = b.events.length;
    await expect(a.api.call('tags.rename', { tag_id: 't-steel', tag: 'Copper' })).rejects.toThrow(
      'a tag named "Metals" already exists; merge the two tags instead',
    );
    await b.waitFor((e) => e.type === 'toast' && e.kind === 'error', { since });
    expect(await names(b)).toEqual(['Steel', 'Metals']);
    await ws.workspace.idle();
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });

  it('merges at once: the documents carry the other tag, and the server agrees', async () => {
    const { ws, a, b, server, docs } = await tagged();
    await a.api.call('tags.merge', { from: 't-steel', into: 't-metals' });
    expect(await names(b)).toEqual(['Metals']);
    expect(await b.api.call('tags.ofDocuments', { deeplinks: docs })).toEqual({
      [docs[0]]: ['t-metals'],
      [docs[1]]: ['t-metals'],
      [docs[2]]: ['t-metals'],
    });
    expect(await b.api.call('tags.counts', {})).toEqual({ 't-metals': 3 });
    await ws.workspace.idle();
    const links = (await server.get('/tag/links')) as { links: unknown[] };
    expect(links.links).toEqual(
      [...docs].sort().map((deeplink) => ({ deeplink, tag_ids: ['t-metals'] })),
    );
  });

  it('takes a merge made on another device from the change feed', async () => {
    const { a, server, docs } = await tagged();
    await server.send('POST', '/tag/merge', { from: 't-metals', into: 't-steel' });
    const since = a.events.length;
    await a.api.call('sync.pull', {});
    await a.waitFor(
      (e) =>
        e.type === 'changed' && e.store === 'document_tags' && (e.keys?.includes(docs[2]) ?? false),
      { since },
    );
    expect(await names(a)).toEqual(['Steel']);
    expect(await a.api.call('tags.ofDocuments', { deeplinks: docs })).toEqual({
      [docs[0]]: ['t-steel'],
      [docs[1]]: ['t-steel'],
      [docs[2]]: ['t-steel'],
    });
  });
});
