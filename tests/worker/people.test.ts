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

/** People and contacts: mirrored, optimistic through the outbox, rolled back when refused. */
const suite = setupWorkspaceSuite({ ingest: false });

const peopleChanged = (e: WorkerEvent) => e.type === 'changed' && e.store === 'people';
const priorities = async (tab: HeadlessTab) =>
  (await tab.api.call('people.list', {})).map((p) => [p.people_name, p.people_priority]);

async function twoTabs() {
  const user = newUser();
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ fetch: faulty.fetch });
  const a = await ws.tab('tab-a');
  const b = await ws.tab('tab-b');
  await a.api.call('auth.signUp', user);
  const server = await serverView(suite.env.baseUrl, user.email, user.password);
  expect(await a.api.call('people.list', {})).toEqual([]);
  return { user, ws, a, b, server, faulty };
}

const ravi = {
  people_id: 'p-ravi',
  people_name: 'Ravi Menon',
  people_priority: 'LOW' as const,
  contacts: [{ contact_id: 'ravi@example.com', contact_name: 'Ravi', contact_source: 'email' }],
};

describe('people', () => {
  it('creates and changes a priority at once in every tab, and the server keeps it', async () => {
    const { ws, a, b, server, faulty } = await twoTabs();
    await a.api.call('people.create', ravi);
    await a.api.call('people.create', { people_id: 'p-anna', people_name: 'Anna Bell' });
    expect(await priorities(b)).toEqual([
      ['Anna Bell', 'MEDIUM'],
      ['Ravi Menon', 'LOW'],
    ]);
    await ws.workspace.idle();

    const gate = createGate();
    faulty.state.rule = (url) => (url.includes('/people/edit/') ? { hold: gate.opened } : null);
    const since = b.events.length;
    const edited = a.api.call('people.edit', { id: 'p-ravi', edit: { priority: 'HIGH' } });
    await b.waitFor(peopleChanged, { since });
    // Applied at once, before the server answered.
    expect(await priorities(b)).toEqual([
      ['Anna Bell', 'MEDIUM'],
      ['Ravi Menon', 'HIGH'],
    ]);
    gate.open();
    await edited;
    await ws.workspace.idle();
    expect(await server.get('/people/p-ravi')).toMatchObject({
      people_name: 'Ravi Menon',
      people_priority: 'HIGH',
      contacts: [{ contact_id: 'ravi@example.com', contact_name: 'Ravi', contact_source: 'email' }],
    });
  });

  it('reverts a refused priority in every tab, with the server message', async () => {
    const { ws, a, b, faulty } = await twoTabs();
    await a.api.call('people.create', ravi);
    await ws.workspace.idle();
    faulty.state.rule = (url) =>
      url.includes('/people/edit/')
        ? errorResponse(409, 'conflict', 'contact ravi@example.com (email) already belongs to Anna')
        : null;
    const since = b.events.length;
    await expect(
      a.api.call('people.edit', { id: 'p-ravi', edit: { priority: 'HIGH' } }),
    ).rejects.toThrow('contact ravi@example.com (email) already belongs to Anna');
    await b.waitFor(
      (e) =>
        e.type === 'toast' &&
        e.message === 'contact ravi@example.com (email) already belongs to Anna',
      { since },
    );
    expect(await priorities(b)).toEqual([['Ravi Menon', 'LOW']]);
    expect(await a.api.call('outbox.list', {})).toEqual([]);
  });

  it('takes people made elsewhere: pulled on first use, then by the change feed', async () => {
    const { user, server, ws, a } = await twoTabs();
    await server.send('POST', '/people', ravi);
    const other = suite.workspace();
    const c = await other.tab();
    await c.api.call('auth.signIn', { email: user.email, password: user.password });
    expect(await c.api.call('people.get', { id: 'p-ravi' })).toMatchObject({
      people_name: 'Ravi Menon',
      people_priority: 'LOW',
    });
    await server.send('POST', '/people/edit/p-ravi', { priority: 'MEDIUM', name: 'Ravi K' });
    await server.send('POST', '/people', { people_id: 'p-zed', people_name: 'Zed' });
    await c.api.call('sync.pull', {});
    expect(await priorities(c)).toEqual([
      ['Ravi K', 'MEDIUM'],
      ['Zed', 'MEDIUM'],
    ]);
    // Deleted in the first workspace: the second hears of it from the change feed.
    await a.api.call('sync.pull', {});
    expect(await a.api.call('people.get', { id: 'p-zed' })).not.toBeNull();
    await a.api.call('people.delete', { id: 'p-zed' });
    await ws.workspace.idle();
    await c.api.call('sync.pull', {});
    expect(await c.api.call('people.get', { id: 'p-zed' })).toBeNull();
    const info = await c.api.call('people.contactInfo', {
      source: 'email',
      contacts: [{ contact_id: 'RAVI@example.com' }],
    });
    expect(info.results.map((r) => r.person?.people_id ?? null)).toEqual(['p-ravi']);
  });
});
