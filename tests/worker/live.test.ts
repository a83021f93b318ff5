import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import type { HeadlessTab } from '../../worker/headless';
import { newsItem, serverDocs, type ServerDocs } from './feed-support';
import { createFaultyFetch, newUser, serverView, setupWorkspaceSuite } from './support';

/** GET /sync/live and the worker's live connection: new documents without a reload. */
const suite = setupWorkspaceSuite({ ingest: false });
let docs: ServerDocs;
beforeAll(async () => {
  docs = await serverDocs(suite.env);
});
afterAll(() => docs?.close());

async function signIn(baseUrl: string) {
  const user = newUser();
  const response = await fetch(`${baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const { id_token: token, user: me } = (await response.json()) as {
    id_token: string;
    user: { id: string };
  };
  return { user, token, id: me.id };
}

/** The `data:` payloads of an event stream, as they arrive. */
function events(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6));
        if (data.length) return data.join('\n');
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { next, close: () => reader.cancel() };
}

describe('GET /sync/live', () => {
  it('is listed in the API description', async () => {
    const doc = (await (await fetch(`${suite.env.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/sync/live'])).toEqual(['get']);
  });

  it('refuses a caller without a token', async () => {
    const response = await fetch(`${suite.env.baseUrl}/sync/live`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('sends the cursor at once, on every change here, and on changes made elsewhere', async () => {
    const { user, token, id } = await signIn(suite.env.baseUrl);
    const controller = new AbortController();
    const response = await fetch(`${suite.env.baseUrl}/sync/live`, {
      headers: { token },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(response.body!);
    const first = JSON.parse(await stream.next()) as { cursor: number };

    const other = await serverView(suite.env.baseUrl, user.email, user.password);
    await other.send('PUT', '/user/preferences', { nav_state: 'closed' });
    expect(JSON.parse(await stream.next())).toEqual({ cursor: first.cursor + 1 });

    // Another server process moves the sequence: no signal here, the poll notices.
    await docs.db
      .updateTable('users')
      .set((eb) => ({ change_seq: eb('change_seq', '+', 1) }))
      .where('id', '=', id)
      .execute();
    expect(JSON.parse(await stream.next())).toEqual({ cursor: first.cursor + 2 });
    controller.abort();
  });
});

const top = (tab: HeadlessTab) =>
  tab.api.call('feed.window', { board: 'home', tab: null, sort: 'latest', offset: 0, count: 3 });
const showing = (key: string) => (e: WorkerEvent) =>
  e.type === 'changed' &&
  e.store === 'feed_entries' &&
  (e.keys?.some((k) => k.endsWith(key)) ?? false);

describe('the worker live connection', () => {
  it('shows a document inserted on the server in every open tab, with no refresh', async () => {
    const ws = suite.workspace({ live: true });
    const a = await ws.tab('a');
    const b = await ws.tab('b');
    await a.api.call('auth.signUp', newUser());
    await a.api.call('sources.follow', { key: 'demo_macro_monitor' });
    await top(a);
    await top(b);

    const now = Math.floor(Date.now() / 1000);
    const since = b.events.length;
    await docs.insert('demo_macro_monitor', [
      newsItem('live-1', 'Central bank holds rates steady', now - 1),
    ]);
    const [row] = (await docs.db
      .selectFrom('documents')
      .select('id')
      .where('dedupe_key', '=', 'live-1')
      .execute()) as Array<{ id: string }>;
    await b.waitFor(showing(`|${row.id}`), { since });
    expect((await top(b)).rows[0].title).toBe('Central bank holds rates steady');
    expect((await top(a)).rows[0].title).toBe('Central bank holds rates steady');
  });

  it('connects again after a failed attempt', async () => {
    const faulty = createFaultyFetch();
    let refused = 0;
    // The client's own two retries fail too: the worker's next attempt comes after its backoff.
    faulty.state.rule = (url) => (url.endsWith('/sync/live') && refused++ < 3 ? 'offline' : null);
    const ws = suite.workspace({ live: true, fetch: faulty.fetch });
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    await a.api.call('sources.follow', { key: 'demo_policy_brief' });
    await top(a);
    // The first attempt failed; the next one (1 s later) is the live connection.
    await expect
      .poll(() => faulty.state.sent.filter((s) => s.endsWith('/sync/live')).length, {
        timeout: 5000,
      })
      .toBe(1);
    expect(refused).toBe(4);

    const now = Math.floor(Date.now() / 1000);
    const since = a.events.length;
    await docs.insert('demo_policy_brief', [
      newsItem('live-2', 'New filing rules take effect', now),
    ]);
    const [row] = (await docs.db
      .selectFrom('documents')
      .select('id')
      .where('dedupe_key', '=', 'live-2')
      .execute()) as Array<{ id: string }>;
    await a.waitFor(showing(`|${row.id}`), { since });
    expect((await top(a)).rows[0].title).toBe('New filing rules take effect');
  });
});
