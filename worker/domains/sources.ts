import {
  PRIORITY_TEXT,
  sources,
  type Categories,
  type Source,
  type SourceBoard,
} from '../../contract/sources';
import type { Variant } from '../../contract/tabs';
import type { PatchItem } from '../mirror';
import { sessionChanged } from '../api-errors';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../registry';
import { freshRead, ownKey } from './fresh';

type S = StoreOf<typeof sources>;
type Ctx = DomainContext<S>;

const SOURCES = 'sources' satisfies S;
/** The followed sources' ids, in the server's order, and when they were fetched. */
const LIST = ownKey('list');
const CATALOGUE = ownKey('catalogue');
const TOPICS = ownKey('topics');

type ListRecord = { ids: string[]; fetched_at: number };
type Timed<T> = { value: T; fetched_at: number };

/** 002 §7: source lists fresh for 15 s, RSS sources for 60 s. */
const LIST_FRESH_MS = 15_000;
const TOPICS_FRESH_MS = 60_000;

const get = async <T>(ctx: Ctx, key: string) => (await ctx.mirror).get<T>(SOURCES, key);

/** The followed sources the mirror holds, in list order (undefined: never fetched). */
async function listed(ctx: Ctx): Promise<Source[] | undefined> {
  const list = await get<ListRecord>(ctx, LIST);
  if (!list) return undefined;
  const records = await (await ctx.mirror).getMany<Source>(SOURCES, list.ids);
  return records.filter((s): s is Source => s !== undefined);
}

/** What the user follows, with each source's ingestion status: /source/public + /source/private. */
const listRead = (ctx: Ctx, variant: Variant) => ({
  key: 'sources.list',
  read: () => listed(ctx),
  fetchedAt: async () => (await get<ListRecord>(ctx, LIST))?.fetched_at,
  async fetch({ background, signal }: { background: boolean; signal: AbortSignal }) {
    const options = { variant, background, signal };
    const [pub, own] = await Promise.all([
      ctx.client.call('publicSources', { ...options, query: {} }),
      ctx.client.call('privateSources', options),
    ]);
    const followed = new Map<string, Source>();
    for (const s of [...pub.sources, ...own.sources]) if (s.followed) followed.set(s.source_id, s);
    const gone = (await (await ctx.mirror).keys(SOURCES)).filter(
      (key) => !key.startsWith('\u0000') && !followed.has(key),
    );
    const items: PatchItem<S>[] = gone.map((key): PatchItem<S> => ({ store: SOURCES, key }));
    for (const [key, value] of followed) items.push({ store: SOURCES, key, value });
    const list: ListRecord = { ids: [...followed.keys()], fetched_at: ctx.clock.now() };
    items.push({ store: SOURCES, key: LIST, value: list });
    return items;
  },
});

/** A cached answer of one endpoint, kept with its fetch time. */
const timedRead = <T>(ctx: Ctx, key: string, fetch: (signal: AbortSignal) => Promise<T>) => ({
  key: `sources.${key}`,
  read: async () => (await get<Timed<T>>(ctx, key))?.value,
  fetchedAt: async () => (await get<Timed<T>>(ctx, key))?.fetched_at,
  fetch: async ({ signal }: { signal: AbortSignal }): Promise<PatchItem<S>[]> => [
    { store: SOURCES, key, value: { value: await fetch(signal), fetched_at: ctx.clock.now() } },
  ],
});

/** A source's add-to-feeds picker: the user's feeds, each marked when it reads the source. */
const feedsKey = (key: string) => ownKey(`feeds:${key}`);

const feedsRead = (ctx: Ctx, key: string, variant: Variant) =>
  timedRead<SourceBoard[]>(ctx, feedsKey(key), async (signal) => {
    const answer = await ctx.client.call('sourceBoards', { params: { id: key }, variant, signal });
    return answer.results;
  });

/** The picker as it will be once the server has made exactly `boards` read the source. */
async function chosenFeeds(ctx: Ctx, key: string, boards: readonly string[]) {
  const held = await get<Timed<SourceBoard[]>>(ctx, feedsKey(key));
  if (!held) return undefined;
  const value = held.value.map((b) => ({
    ...b,
    selected: b.reads_all || boards.includes(b.board_id),
  }));
  return { ...held, value };
}

/** Writes followed sources (and their place in the list) after the server said so. */
async function keepFollowed(ctx: Ctx, add: Source[], remove: string[] = []) {
  const owner = ctx.owner();
  if (!owner) throw sessionChanged('sources');
  const list = await get<ListRecord>(ctx, LIST);
  const items: PatchItem<S>[] = [
    ...add.map((s): PatchItem<S> => ({ store: SOURCES, key: s.source_id, value: s })),
    ...remove.map((key): PatchItem<S> => ({ store: SOURCES, key })),
  ];
  if (list) {
    const ids = list.ids.filter((id) => !remove.includes(id));
    for (const s of add) if (!ids.includes(s.source_id)) ids.push(s.source_id);
    items.push({ store: SOURCES, key: LIST, value: { ...list, ids } });
  }
  if (!(await ctx.reads.store(items, owner))) throw sessionChanged('sources');
}

/**
 * Sources: the catalogue, what the user follows (with ingestion status) and following by key
 * or by address. Follow and unfollow answer with the server's word (its error text is the
 * spec's toast on failure); priority is optimistic through the outbox.
 */
export const sourcesDomain = defineWorkerDomain(sources, {
  stores: { sources: { keyPath: null, version: 1 } },
  reads: {
    'sources.list': (ctx, _input, conn) =>
      freshRead(ctx, listRead(ctx, conn.variant), LIST_FRESH_MS),
    'sources.catalogue': (ctx, _input, conn) =>
      freshRead(
        ctx,
        timedRead<Categories>(ctx, CATALOGUE, (signal) =>
          ctx.client.call('categories', { variant: conn.variant, signal }),
        ),
        LIST_FRESH_MS,
      ),
    'sources.topics': (ctx, _input, conn) =>
      freshRead(
        ctx,
        timedRead(ctx, TOPICS, (signal) =>
          ctx.client.call('rssTopics', { variant: conn.variant, signal }),
        ),
        TOPICS_FRESH_MS,
      ),
    // Always revalidated: a feed edited in the builder changes what it reads.
    'sources.feeds': (ctx, { key }, conn) => ctx.reads.swr(feedsRead(ctx, key, conn.variant)),
    async 'sources.follow'(ctx, { key }, conn) {
      const result = await ctx.client.call('follow', {
        body: { key },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keepFollowed(ctx, [result.source]);
      return result;
    },
    async 'sources.unfollow'(ctx, { key }, conn) {
      const before = await freshRead(ctx, listRead(ctx, conn.variant), LIST_FRESH_MS);
      const result = await ctx.client.call('follow', {
        body: { key, delink: true },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keepFollowed(ctx, [], [result.source.source_id]);
      // Where the UI goes next (002 §4): the next followed source, else the one before.
      const at = before.findIndex((s) => s.key === key || s.source_id === result.source.source_id);
      const rest = before.filter((_, i) => i !== at);
      const next = at < 0 ? rest[0] : (rest[at] ?? rest[at - 1]);
      return { message: result.message, next: next?.key ?? null };
    },
    async 'sources.followMany'(ctx, body, conn) {
      const result = await ctx.client.call('followMany', {
        body,
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keepFollowed(ctx, result.sources);
      return result;
    },
    async 'sources.followUrl'(ctx, body, conn) {
      const source = await ctx.client.call('followRss', {
        body,
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keepFollowed(ctx, [source]);
      return source;
    },
  },
  mutations: {
    'sources.setPriority': {
      endpoint: 'setPriority',
      async optimistic(ctx, { source_ids, priority }) {
        const mirror = await ctx.mirror;
        const found = await mirror.getMany<Source>(SOURCES, source_ids);
        return found.flatMap((s) =>
          s ? [{ store: SOURCES, key: s.source_id, value: { ...s, priority } }] : [],
        );
      },
      output: (result) => result,
      deferred: (_ctx, { source_ids }) => ({
        updated: source_ids.length,
        message: PRIORITY_TEXT.success,
      }),
    },
    // Add to feeds (002 §4): the selection shows at once; a refusal puts the picker back.
    'sources.setFeeds': {
      endpoint: 'setSourceBoards',
      params: ({ key }) => ({ id: key }),
      body: ({ boards }) => ({ boards }),
      orderKey: ({ key }) => `feeds:${key}`,
      async optimistic(ctx, { key, boards }) {
        const next = await chosenFeeds(ctx, key, boards);
        return next ? [{ store: SOURCES, key: feedsKey(key), value: next }] : [];
      },
      confirm: ({ key }, result) => [
        {
          store: SOURCES,
          key: feedsKey(key),
          value: { value: result.results, fetched_at: 0 }, // always revalidated (swr)
        },
      ],
      output: (result) => result.results,
      deferred: async (ctx, { key, boards }) => (await chosenFeeds(ctx, key, boards))?.value ?? [],
    },
  },
  changes: {
    async follow(change, tx) {
      const list = await tx.get<ListRecord>(SOURCES, LIST);
      const source = change.op === 'upsert' && change.data.followed ? change.data : undefined;
      const followed = source !== undefined;
      const id = change.op === 'upsert' ? change.data.source_id : change.id;
      tx.put(SOURCES, id, source);
      if (!list) return;
      const ids = list.ids.filter((x) => x !== id);
      if (followed) ids.push(id);
      // A source already listed keeps its place.
      const kept = followed && list.ids.includes(id) ? list.ids : ids;
      tx.put(SOURCES, LIST, { ...list, ids: kept });
    },
  },
});
