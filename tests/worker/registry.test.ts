import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDomain, endpoint, id, op, text } from '../../contract/define';
import type { Change } from '../../contract/sync';
import type { WorkerEvent } from '../../contract/worker-api';
import { productDomains } from '../../worker/domains';
import type { HeadlessTab } from '../../worker/headless';
import { CORE_CONTRACTS } from '../../worker/ops';
import { defineWorkerDomain } from '../../worker/registry';
import { createRegistry, offerOf } from '../../worker/registry-build';
import type { RequestInitLike } from '../../worker/deps';
import {
  createFaultyFetch,
  errorResponse,
  mirrorOf,
  newUser,
  setupWorkspaceSuite,
} from './support';

const suite = setupWorkspaceSuite();
const { workspace } = suite;

/**
 * A domain that exists only here: its contract (an endpoint the real server does not have, two
 * ops, a change entity, a store) and its worker part. Registered in the worker by the
 * `domains` option alone: nothing else in the worker names it.
 */
const Widget = z.object({
  id: id(),
  name: text('name', 80).min(1, { message: 'name must not be empty' }),
  rank: z.number().int(),
  saved_at: z.string().nullable(),
});
type Widget = z.infer<typeof Widget>;
const WidgetInput = Widget.omit({ saved_at: true }).strict();

const widgets = defineDomain({
  name: 'widgets',
  endpoints: {
    saveWidget: endpoint({
      method: 'put',
      path: '/widgets',
      auth: true,
      body: WidgetInput,
      response: Widget,
      status: 200,
      summary: 'Save a widget',
    }),
  },
  ops: {
    'widgets.save': op(WidgetInput, Widget),
    'widgets.top': op(
      z.object({ count: z.number().int().min(1).max(50) }),
      z.object({ rows: z.array(Widget), total: z.number().int() }),
    ),
  },
  changes: { widget: Widget },
  stores: ['widgets'],
});

const BY_RANK = 'by_rank';
const widgetsDomain = defineWorkerDomain(widgets, {
  stores: {
    widgets: { keyPath: 'id', indexes: { [BY_RANK]: { keyPath: ['rank', 'id'] } }, version: 1 },
  },
  reads: {
    async 'widgets.top'(ctx, { count }) {
      const mirror = await ctx.mirror;
      const { rows } = await mirror.window<Widget>('widgets', { index: BY_RANK, count });
      return { rows, total: await mirror.count('widgets') };
    },
  },
  mutations: {
    'widgets.save': {
      endpoint: 'saveWidget',
      orderKey: (input) => input.id,
      optimistic: (_ctx, input) => [
        { store: 'widgets', key: input.id, value: { ...input, saved_at: null } },
      ],
      // The answer is typed from saveWidget's response schema: no cast.
      confirm: (_input, result) => [{ store: 'widgets', key: result.id, value: result }],
      output: (result) => result,
      deferred: (_ctx, input) => ({ ...input, saved_at: null }),
    },
  },
  changes: {
    widget: (change, tx) =>
      tx.put('widgets', change.id, change.op === 'upsert' ? change.data : undefined),
  },
});

const SAVED_AT = '2026-01-02T03:04:05.000Z';
const json = (value: unknown) =>
  new Response(JSON.stringify(value), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/**
 * The widgets' server, in front of the real one: PUT /widgets saves (a name 'refused' gets a
 * 422), and /sync/changes answers from `feed` (the real server's feed for a new account is
 * empty, so nothing is lost).
 */
function widgetServer() {
  const feed: Change[] = [];
  const saves: Array<{ body: unknown; key: string | undefined }> = [];
  const rule = (url: string, init: RequestInitLike) => {
    const { pathname, searchParams } = new URL(url);
    if (pathname.endsWith('/widgets') && init.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Omit<Widget, 'saved_at'>;
      saves.push({ body, key: init.headers['idempotency-key'] });
      if (body.name === 'refused') return errorResponse(422, 'bad_request', 'That name is taken');
      return json({ ...body, saved_at: SAVED_AT });
    }
    if (pathname.endsWith('/sync/changes')) {
      const after = Number(searchParams.get('after') ?? 0);
      const changes = feed.filter((c) => c.seq > after);
      const cursor = changes.length ? changes[changes.length - 1].seq : after;
      return json({ changes, cursor, has_more: false, reset: false });
    }
    return null;
  };
  return { feed, saves, rule };
}

/** The test domain's ops are not in the product's contract types: called by name. */
const call = (tab: HeadlessTab, name: string, input: unknown) =>
  tab.api.call(name as never, input as never) as Promise<unknown>;
const widgetsChanged = (e: WorkerEvent) =>
  e.type === 'changed' && (e.store as string) === 'widgets';

describe('a new domain registered in the worker', () => {
  it('gets its store, reads, outbox mutations and change application with no edit elsewhere', async () => {
    const server = widgetServer();
    const net = createFaultyFetch();
    net.state.rule = server.rule;
    const ws = workspace({ fetch: net.fetch, domains: [...productDomains, widgetsDomain] });
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();

    // Its ops are validated with its own schemas.
    await expect(call(a, 'widgets.save', { id: 'w-1', name: '', rank: 1 })).rejects.toThrow(
      'Invalid input for "widgets.save": name: name must not be empty',
    );

    // Its mutation goes through the outbox: every tab hears of it by key, then the server answers.
    let since = b.events.length;
    const gauge = { id: 'w-1', name: 'Gauge', rank: 2 };
    expect(await call(a, 'widgets.save', gauge)).toEqual({ ...gauge, saved_at: SAVED_AT });
    expect(await b.waitFor(widgetsChanged, { since })).toEqual({
      type: 'changed',
      store: 'widgets',
      keys: ['w-1'],
    });
    expect(server.saves).toEqual([{ body: gauge, key: expect.any(String) }]);
    const dial = { id: 'w-2', name: 'Dial', rank: 1 };
    await call(a, 'widgets.save', dial);

    // Its read answers from its store, by its index.
    expect(await call(b, 'widgets.top', { count: 5 })).toEqual({
      rows: [
        { ...dial, saved_at: SAVED_AT },
        { ...gauge, saved_at: SAVED_AT },
      ],
      total: 2,
    });

    // Offline, the outbox keeps the change and shows it; it goes once the network is back.
    net.state.offline = true;
    const knob = { id: 'w-3', name: 'Knob', rank: 3 };
    expect(await call(a, 'widgets.save', knob)).toEqual({ ...knob, saved_at: null });
    expect(await a.api.call('outbox.list', {})).toEqual([
      expect.objectContaining({ op: 'widgets.save', input: knob }),
    ]);
    net.state.offline = false;
    expect(await a.api.call('outbox.drain', {})).toEqual({ sent: 1, pending: 0 });

    // A rejected change is rolled back: shown at once, then gone, with the server's reason.
    since = b.events.length;
    await expect(
      call(a, 'widgets.save', { id: 'w-4', name: 'refused', rank: 4 }),
    ).rejects.toMatchObject({ status: 422, message: 'That name is taken' });
    expect(await b.waitFor((e) => e.type === 'toast', { since })).toEqual({
      type: 'toast',
      kind: 'error',
      message: 'That name is taken',
    });
    const w4 = { type: 'changed', store: 'widgets', keys: ['w-4'] };
    // Shown at once, then rolled back.
    await expect.poll(() => b.events.slice(since).filter(widgetsChanged)).toEqual([w4, w4]);

    // Its change entity: the feed's upsert and delete land in its store.
    server.feed.push(
      {
        seq: 1,
        entity: 'widget',
        entity_id: 'w-9',
        op: 'upsert',
        data: { id: 'w-9', name: 'Lever', rank: 0, saved_at: SAVED_AT },
        created_at: SAVED_AT,
      },
      {
        seq: 2,
        entity: 'widget',
        entity_id: 'w-1',
        op: 'delete',
        data: null,
        created_at: SAVED_AT,
      },
    );
    since = b.events.length;
    expect(await a.api.call('sync.pull', {})).toEqual({ applied: 2, cursor: 2 });
    expect(await b.waitFor(widgetsChanged, { since })).toEqual({
      type: 'changed',
      store: 'widgets',
      keys: ['w-9', 'w-1'],
    });
    expect(await call(b, 'widgets.top', { count: 5 })).toEqual({
      rows: [
        { id: 'w-9', name: 'Lever', rank: 0, saved_at: SAVED_AT },
        { ...dial, saved_at: SAVED_AT },
        { ...knob, saved_at: SAVED_AT },
      ],
      total: 3,
    });

    // Its store is the user's data: a sign-out wipes it.
    await a.api.call('auth.signOut', {});
    const db = await mirrorOf(ws);
    expect(db.stores).toContain('widgets');
    expect(await db.count('widgets')).toBe(0);
    db.close();
  });
});

/**
 * A domain with per-workspace state that follows another domain's store and change entity (the
 * documents' read state) without that domain knowing it.
 */
const Seen = z.object({
  reads: z.number().int(),
  stores: z.array(z.array(z.string()).nullable()),
  changes: z.array(z.string()),
});
const counters = defineDomain({
  name: 'counters',
  endpoints: {},
  ops: {
    'counters.seen': op(z.object({}), Seen),
    'counters.readOf': op(z.object({ deeplinks: z.array(z.string()) }), z.array(z.boolean())),
  },
  changes: {},
  stores: [],
});
type CountersState = z.infer<typeof Seen>;
const countersDomain = defineWorkerDomain(counters, {
  state: (): CountersState => ({ reads: 0, stores: [], changes: [] }),
  stores: {},
  reads: {
    'counters.seen'(ctx) {
      ctx.state.reads += 1;
      return ctx.state;
    },
    // The read state through the documents domain's offer: no store of it is named here.
    'counters.readOf': (ctx, { deeplinks }) => ctx.ask('read.states', deeplinks),
  },
  changes: {},
  follows: {
    stores: {
      read_status(keys, { state }) {
        state?.stores.push(keys);
      },
    },
    changes: {
      read_status(change, tx) {
        tx.after((ctx) => void ctx.state.changes.push(change.id));
      },
    },
  },
});

describe('a domain with state that follows other domains', () => {
  it('keeps its state per workspace and hears of the read state the documents domain keeps', async () => {
    const net = createFaultyFetch();
    const feed: Change[] = [];
    net.state.rule = (url, init) => {
      const { pathname, searchParams } = new URL(url);
      // The mark is accepted (no rollback to tell of); the change feed is the test's.
      if (pathname.endsWith('/doc/read_status') && init.method === 'PUT') {
        return json({ updated: 1 });
      }
      if (!pathname.endsWith('/sync/changes')) return null;
      const after = Number(searchParams.get('after') ?? 0);
      const changes = feed.filter((c) => c.seq > after);
      const cursor = changes.length ? changes[changes.length - 1].seq : after;
      return json({ changes, cursor, has_more: false, reset: false });
    };
    const domains = [...productDomains, countersDomain];
    const one = workspace({ fetch: net.fetch, domains });
    const two = workspace({ fetch: net.fetch, domains });
    const a = await one.tab('tab-a');
    const b = await two.tab('tab-b');
    await a.api.call('auth.signUp', newUser());
    await b.api.call('auth.signUp', newUser());
    await one.workspace.idle();
    await two.workspace.idle();

    // Each workspace has its own state, made when the domain first runs there.
    await call(a, 'counters.seen', {});
    expect(await call(a, 'counters.seen', {})).toMatchObject({ reads: 2 });
    expect(await call(b, 'counters.seen', {})).toEqual({ reads: 1, stores: [], changes: [] });

    // A mark (the documents domain's store) reaches the follower with its keys...
    await a.api.call('doc.setRead', { deeplinks: ['doc-1'], status: 'read' });
    await expect
      .poll(async () => ((await call(a, 'counters.seen', {})) as CountersState).stores)
      .toEqual([['doc-1']]);

    // ...and so does the documents' change entity, after its own domain applied it.
    feed.push({
      seq: 1,
      entity: 'read_status',
      entity_id: 'doc-2',
      op: 'upsert',
      data: { deeplink: 'doc-2', read: true },
      created_at: SAVED_AT,
    });
    expect(await a.api.call('sync.pull', {})).toEqual({ applied: 1, cursor: 1 });
    await one.workspace.idle();
    expect(await call(a, 'counters.seen', {})).toMatchObject({
      stores: [['doc-1'], ['doc-2']],
      changes: ['doc-2'],
    });
    expect(await a.api.call('doc.readState', { deeplinks: ['doc-2'] })).toEqual({ 'doc-2': true });
    // Asked of the documents domain (its offer 'read.states'), answered from its store.
    expect(await call(a, 'counters.readOf', { deeplinks: ['doc-1', 'doc-2', 'doc-3'] })).toEqual([
      true,
      true,
      false,
    ]);
    expect(await call(b, 'counters.readOf', { deeplinks: ['doc-1'] })).toEqual([false]);
    // The other workspace heard nothing.
    expect(await call(b, 'counters.seen', {})).toEqual({ reads: 2, stores: [], changes: [] });
  });
});

describe('the registry refuses a domain that does not add up', () => {
  const build =
    (...extra: ReturnType<typeof defineWorkerDomain>[]) =>
    () =>
      createRegistry(CORE_CONTRACTS, [...productDomains, ...extra]);

  it('names an op that no part answers', () => {
    const { mutations: _none, ...parts } = widgetsDomain;
    const incomplete = { ...parts, mutations: {} };
    expect(build(incomplete)).toThrow(
      'worker registry: op "widgets.save" of domain "widgets" has no read or mutation',
    );
  });

  it('names a store or an op declared twice', () => {
    expect(build(widgetsDomain, widgetsDomain)).toThrow(
      'worker registry: store "widgets" is declared by domain "widgets" and domain "widgets"',
    );
    const twin = defineWorkerDomain(
      defineDomain({ ...widgets, name: 'twin', stores: [], changes: {} }),
      { stores: {}, reads: widgetsDomain.reads, mutations: widgetsDomain.mutations, changes: {} },
    );
    expect(build(widgetsDomain, twin)).toThrow(
      'worker registry: op "widgets.save" is declared by domain "widgets" and domain "twin"',
    );
  });

  it('names an offer given twice, and an offer no domain gives', () => {
    const echo = defineWorkerDomain(
      defineDomain({ name: 'echo', endpoints: {}, ops: {}, changes: {}, stores: [] }),
      { stores: {}, changes: {}, offers: { 'read.states': async () => [] } },
    );
    expect(build(echo)).toThrow(
      'worker registry: offer "read.states" is declared by domain "documents" and domain "echo"',
    );
    // A workspace without the documents domain: its offer is not there to ask.
    const bare = createRegistry(CORE_CONTRACTS, []);
    expect(() => offerOf(bare, 'read.states')).toThrow(
      'worker registry: no domain offers "read.states"',
    );
  });

  it('names a follow of its own store or of a change no domain declares', () => {
    const own = { ...widgetsDomain, follows: { stores: { widgets: () => {} }, changes: {} } };
    expect(build(own)).toThrow(
      'worker registry: domain "widgets" follows "widgets", not another domain\'s store',
    );
    const unknown = { ...widgetsDomain, follows: { stores: {}, changes: { gadget: () => {} } } };
    expect(build(unknown)).toThrow(
      'worker registry: domain "widgets" follows "gadget", not another domain\'s change',
    );
  });
});
