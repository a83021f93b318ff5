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

/** Notebooks and notes: optimistic through the outbox, the same in every tab, kept by the feed. */
const suite = setupWorkspaceSuite({ ingest: false });

const changed = (store: 'notebooks' | 'notes', key: string) => (e: WorkerEvent) =>
  e.type === 'changed' && e.store === store && (e.keys?.includes(key) ?? false);
const names = async (tab: HeadlessTab) =>
  (await tab.api.call('notebooks.list', {})).map((n) => [n.notebook_name, n.notes]);
const paragraph = (text: string) => ({
  type: 'paragraph' as const,
  children: [{ text }],
});

/** A DELETE straight to the server, as another device would send it. */
async function serverDelete(user: { email: string; password: string }, path: string) {
  const base = suite.env.baseUrl;
  const signIn = await fetch(`${base}/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const { id_token: token } = (await signIn.json()) as { id_token: string };
  const response = await fetch(`${base}${path}`, { method: 'DELETE', headers: { token } });
  expect(response.status).toBe(200);
}

async function twoTabs() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  expect(await a.api.call('notebooks.list', {})).toEqual([]);
  // The add_notebook gate, from the server's pricing messages: a new user is eligible.
  expect(await a.api.call('notebooks.gate', {})).toEqual({ isEligible: true, message: null });
  return { user, ws, a, b, server, faulty };
}

describe('notebooks', () => {
  it('creates a notebook and a note in it at once in every tab, before the server answers', async () => {
    const { ws, a, b, server, faulty } = await twoTabs();
    const gate = createGate();
    faulty.state.rule = (url, init) =>
      init.method === 'PUT' && (url.includes('/notebook') || url.includes('/note/'))
        ? { hold: gate.opened }
        : null;

    const since = b.events.length;
    const created = a.api.call('notebooks.create', { id: 'nb-1', name: '  Rates ' });
    const noted = a.api.call('notes.create', {
      id: 'note-1',
      notebook_id: 'nb-1',
      name: 'Repo',
      document: [paragraph('Held at 6.5%.')],
    });
    await b.waitFor(changed('notes', 'note-1'), { since });
    expect(await names(b)).toEqual([['Rates', 1]]);
    expect(
      (await b.api.call('notes.list', { notebook_id: 'nb-1', limit: 10 })).map((n) => n.name),
    ).toEqual(['Repo']);

    gate.open();
    await created;
    await noted;
    await ws.workspace.idle();
    expect(await server.get('/notebook/list')).toMatchObject({
      results: [{ notebook_id: 'nb-1', notebook_name: 'Rates', notes: 1 }],
    });
    expect(await server.get('/note/note-1')).toMatchObject({
      results: { name: 'Repo', document: [paragraph('Held at 6.5%.')] },
    });
  });

  it('edits, renames and deletes through the outbox, seen in the other tab', async () => {
    const { ws, a, b, server } = await twoTabs();
    await a.api.call('notebooks.create', { id: 'nb-2', name: 'Energy' });
    await a.api.call('notes.create', {
      id: 'note-2',
      notebook_id: 'nb-2',
      name: 'Draft',
      document: [paragraph('First.')],
    });
    await b.api.call('notes.edit', {
      id: 'note-2',
      document: [paragraph('Edited.')],
      name: 'Final',
    });
    expect(await a.api.call('notes.get', { id: 'note-2' })).toMatchObject({
      name: 'Final',
      document: [paragraph('Edited.')],
    });
    await b.api.call('notebooks.rename', { id: 'nb-2', name: 'Power' });
    expect(await names(a)).toEqual([['Power', 1]]);
    await ws.workspace.idle();
    expect(await server.get('/note/note-2')).toMatchObject({
      results: { name: 'Final', document: [paragraph('Edited.')] },
    });
    await a.api.call('notebooks.delete', { id: 'nb-2' });
    expect(await b.api.call('notebooks.list', {})).toEqual([]);
    expect(await b.api.call('notes.get', { id: 'note-2' })).toBeNull();
    await ws.workspace.idle();
    expect(await server.get('/notebook/list')).toEqual({ results: [] });
  });

  it('rolls a refused create back in every tab, with the server message', async () => {
    const { ws, a, b, faulty } = await twoTabs();
    faulty.state.rule = (url, init) =>
      init.method === 'PUT' && url.includes('/notebook')
        ? errorResponse(400, 'bad_request', 'a user holds at most 500 notebooks')
        : null;
    const since = b.events.length;
    await expect(
      a.api.call('notebooks.create', { id: 'nb-x', name: 'One too many' }),
    ).rejects.toThrow('a user holds at most 500 notebooks');
    const first = await b.waitFor(changed('notebooks', 'nb-x'), { since });
    await b.waitFor(changed('notebooks', 'nb-x'), { since: b.events.indexOf(first) + 1 });
    await b.waitFor(
      (e) =>
        e.type === 'toast' &&
        e.kind === 'error' &&
        e.message === 'a user holds at most 500 notebooks',
      { since },
    );
    expect(await b.api.call('notebooks.list', {})).toEqual([]);
    await ws.workspace.idle();
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });

  it('takes notebooks made elsewhere: pulled on first use, then by the change feed', async () => {
    const { user, server } = await twoTabs();
    await server.send('PUT', '/notebook', { name: 'Banks', id: 'nb-banks' });
    await server.send('PUT', '/note/create/nb-banks', {
      name: 'HDFC',
      id: 'note-hdfc',
      document: [paragraph('Deposits grew.')],
    });

    const other = suite.workspace();
    const c = await other.tab();
    await c.api.call('auth.signIn', { email: user.email, password: user.password });
    expect(await names(c)).toEqual([['Banks', 1]]);

    await server.send('PUT', '/notebook', { name: 'Steel', id: 'nb-steel' });
    await serverDelete(user, '/notebook/nb-banks');
    const since = c.events.length;
    await c.api.call('sync.pull', {});
    await c.waitFor(changed('notes', 'note-hdfc'), { since });
    expect(await names(c)).toEqual([['Steel', 0]]);
    expect(await c.api.call('notes.get', { id: 'note-hdfc' })).toBeNull();
  });
});
