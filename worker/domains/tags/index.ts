import {
  BOOKMARK_TAG_ID,
  tagKey,
  tags,
  type DocumentTags,
  type Tag,
  type TagRow,
} from '../../../contract/tags';
import { sessionChanged } from '../../api-errors';
import type { PatchItem } from '../../mirror';
import { prefixWindow } from '../../mirror-query';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../../registry';
import {
  ANY_TAG,
  BY_TAG,
  BY_TAG_TIME,
  LINKS,
  linkWrite,
  mergeWrites,
  sameTags,
  TAGS,
  unlinkWrites,
  type LinkRecord,
} from './links';

/**
 * Tags and bookmarks in the mirror. Store 'tags' holds the user's tags by id; store
 * 'document_tags' one record per tagged document (`{ deeplink, tag_ids }`, indexed by tag). Each
 * store's progress is one record under LIST_KEY, which no id can equal. Both are pulled once
 * (GET /tag/user-tags, GET /tag/links by cursor), then kept by the change feed ('tag',
 * 'document_tags') and by the user's own writes: optimistic through the outbox, in one queue
 * (a tag is created before the document naming it is sent), rolled back with the server's
 * message when it refuses. A bookmark is the reserved tag BOOKMARK_TAG_ID.
 *
 * A tag page is a feed: each link record keeps its document's card (pulled with the links, sent
 * with a change, or given by the tab that tags) and one key per tag, [tag, unix, deeplink], in
 * the multiEntry index BY_TAG_TIME (plus [ANY_TAG, ...] when it carries any tag but the
 * bookmark), so `tags.window` reads any window of a 100k-document tag newest first by an index
 * walk (mirror-walk.ts: from the nearest anchor), never the tag's whole document set.
 */

type S = StoreOf<typeof tags>;
type Ctx = DomainContext<S>;

/** Not an id (ids are 1 to 128 visible characters). */
export const LIST_KEY = '\u0000list';
const PAGE = 5000;

type TagsList = { id: typeof LIST_KEY; complete: boolean };
type LinksList = {
  deeplink: typeof LIST_KEY;
  tag_ids: [];
  cursor: string | null;
  complete: boolean;
  /** Pulled with cards (a mirror from before pulls again, from the start). */
  cards?: true;
};

const isTag = (t: Tag | TagsList): t is Tag => t.id !== LIST_KEY;

/** The user's tags pulled whole (tags the server no longer holds go). */
const pullTags = (ctx: Ctx) =>
  ctx.reads.once('tags.list', async (owner) => {
    const mirror = await ctx.mirror;
    const answer = await ctx.client.call('userTags', { background: true, signal: ctx.signal() });
    const held = new Set(await mirror.keys(TAGS));
    const items: PatchItem<S>[] = answer.user_tags.map((tag) => {
      held.delete(tag.id);
      return { store: TAGS, key: tag.id, value: tag };
    });
    for (const gone of held) if (gone !== LIST_KEY) items.push({ store: TAGS, key: gone });
    const list: TagsList = { id: LIST_KEY, complete: true };
    items.push({ store: TAGS, key: LIST_KEY, value: list });
    if (!(await ctx.reads.store(items, owner))) throw sessionChanged('tags.list');
  });

/** The links pulled from where the mirror left them until the server has no more. */
const pullLinks = (ctx: Ctx) =>
  ctx.reads.once('tags.links', async (owner) => {
    const mirror = await ctx.mirror;
    const held = await mirror.get<LinksList>(LINKS, LIST_KEY);
    let list: LinksList = held?.cards
      ? held
      : { deeplink: LIST_KEY, tag_ids: [], cursor: null, complete: false, cards: true };
    for (;;) {
      const page = await ctx.client.call('tagLinks', {
        query: {
          limit: PAGE,
          cards: 'true',
          ...(list.cursor !== null ? { after: list.cursor } : {}),
        },
        background: true,
        signal: ctx.signal(),
      });
      list = { ...list, cursor: page.cursor ?? list.cursor, complete: !page.has_more };
      const items = page.links.map((link) => linkWrite(link.deeplink, link.tag_ids, link.card));
      items.push({ store: LINKS, key: LIST_KEY, value: list });
      if (!(await ctx.reads.store(items, owner))) throw sessionChanged('document_tags');
      if (!page.has_more || page.links.length === 0) return;
    }
  });

/** Pulls what the mirror does not hold yet: awaited the first time (offline: what it has). */
async function ensure(ctx: Ctx, store: S) {
  const mirror = await ctx.mirror;
  const list = await mirror.get<{ complete: boolean; cards?: true }>(store, LIST_KEY);
  // Links pulled before they carried cards are not in the tag pages' index: pulled again.
  const usable = list && (store === TAGS || list.cards);
  if (usable && list.complete) return;
  const pulled = store === TAGS ? pullTags(ctx) : pullLinks(ctx);
  if (!usable) await pulled.catch(() => {});
  else ctx.track(pulled.catch(() => {}));
}

/**
 * 'tags.window': rows `offset` to `offset + count` of a tag page (newest document first), and
 * how many documents the tag holds, from BY_TAG_TIME alone (the count is kept by the mirror
 * until the store is written again).
 */
async function tagWindow(
  ctx: Ctx,
  input: { tag_id?: string; offset: number; count: number },
): Promise<{ offset: number; rows: TagRow[]; total: number }> {
  void ctx.ask('read.ensureList', false);
  await ensure(ctx, LINKS);
  const mirror = await ctx.mirror;
  const { offset, count } = input;
  const query = prefixWindow(BY_TAG_TIME, [input.tag_id ?? ANY_TAG], 'prev', offset, count);
  const { lower, upper } = query;
  const total = await mirror.count(LINKS, { index: BY_TAG_TIME, lower, upper });
  const { rows } = await mirror.window<LinkRecord>(LINKS, { ...query, total });
  const read = await ctx.ask(
    'read.states',
    rows.map((r) => r.deeplink),
  );
  return {
    offset,
    total,
    rows: rows.map((r, i) => ({
      deeplink: r.deeplink,
      card: r.card ? { ...r.card, read: read[i] } : null,
    })),
  };
}

/** The optimistic records of tags to create: those of a name the mirror does not hold yet. */
async function createWrites(
  ctx: Ctx,
  create: ReadonlyArray<{ id: string; tag: string }>,
): Promise<PatchItem<S>[]> {
  const all = (await (await ctx.mirror).getAll<Tag | TagsList>(TAGS)).filter(isTag);
  const held = new Set(all.map((t) => tagKey(t.name)));
  const writes: PatchItem<S>[] = [];
  for (const { id, tag } of create) {
    if (held.has(tagKey(tag))) continue;
    held.add(tagKey(tag));
    const record: Tag = { id, name: tag, created_at: new Date(ctx.clock.now()).toISOString() };
    writes.push({ store: TAGS, key: id, value: record });
  }
  return writes;
}

export const tagsDomain = defineWorkerDomain(tags, {
  stores: {
    tags: { keyPath: 'id', version: 1 },
    document_tags: {
      keyPath: 'deeplink',
      indexes: {
        [BY_TAG]: { keyPath: 'tag_ids', multiEntry: true },
        [BY_TAG_TIME]: { keyPath: 'k_tag', multiEntry: true },
      },
      version: 2,
    },
  },
  reads: {
    async 'tags.list'(ctx) {
      await ensure(ctx, TAGS);
      const all = await (await ctx.mirror).getAll<Tag | TagsList>(TAGS);
      return all
        .filter(isTag)
        .sort((a, b) =>
          a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
        );
    },
    async 'tags.ofDocuments'(ctx, { deeplinks }) {
      await ensure(ctx, LINKS);
      const links = await (await ctx.mirror).getMany<DocumentTags>(LINKS, deeplinks);
      return Object.fromEntries(deeplinks.map((d, i) => [d, links[i]?.tag_ids ?? []]));
    },
    async 'tags.counts'(ctx) {
      await ensure(ctx, TAGS);
      await ensure(ctx, LINKS);
      const mirror = await ctx.mirror;
      const ids = (await mirror.keys(TAGS)).filter((id) => id !== LIST_KEY);
      const counts = await Promise.all(
        ids.map((id) => mirror.count(LINKS, { index: BY_TAG, lower: id, upper: id })),
      );
      return Object.fromEntries(ids.map((id, i) => [id, counts[i]]));
    },
    'tags.window': (ctx, input) => tagWindow(ctx, input),
    async 'tags.documents'(ctx, { tag_id, limit }) {
      await ensure(ctx, LINKS);
      const mirror = await ctx.mirror;
      if (tag_id !== undefined) {
        const links = await mirror.transact([LINKS], (tx) =>
          tx.indexRange<DocumentTags>(LINKS, BY_TAG, { lower: tag_id, upper: tag_id }, limit),
        );
        return links.map((l) => l.deeplink);
      }
      // Any tag but the bookmark: the user's tagged documents (/needlbox/tags/all).
      const all = await mirror.getAll<DocumentTags>(LINKS);
      return all
        .filter((l) => l.deeplink !== LIST_KEY && l.tag_ids.some((t) => t !== BOOKMARK_TAG_ID))
        .slice(0, limit)
        .map((l) => l.deeplink);
    },
  },
  mutations: {
    'tags.create': {
      endpoint: 'createTag',
      // One queue for every tag write: a tag reaches the server before a document naming it.
      orderKey: () => 'tags',
      optimistic: (ctx, { id, tag }) => createWrites(ctx, [{ id, tag }]),
      // The server's tag stands (an existing tag of that name keeps its own id).
      confirm: (input, result): PatchItem<S>[] => [
        ...(result.tag.id !== input.id ? [{ store: TAGS, key: input.id } as PatchItem<S>] : []),
        { store: TAGS, key: result.tag.id, value: result.tag },
      ],
      deferred: () => undefined,
    },
    'tags.delete': {
      endpoint: 'deleteTag',
      orderKey: () => 'tags',
      async optimistic(ctx, { tag_id }) {
        const mirror = await ctx.mirror;
        return [{ store: TAGS, key: tag_id }, ...(await unlinkWrites(mirror, tag_id))];
      },
      deferred: () => undefined,
    },
    'tags.rename': {
      endpoint: 'renameTag',
      orderKey: () => 'tags',
      async optimistic(ctx, { tag_id, tag }) {
        const held = await (await ctx.mirror).get<Tag>(TAGS, tag_id);
        return held ? [{ store: TAGS, key: tag_id, value: { ...held, name: tag } }] : [];
      },
      confirm: (_input, result) => [{ store: TAGS, key: result.tag.id, value: result.tag }],
      deferred: () => undefined,
    },
    'tags.merge': {
      endpoint: 'mergeTags',
      orderKey: () => 'tags',
      optimistic: async (ctx, input) => mergeWrites(await ctx.mirror, input),
      deferred: () => undefined,
    },
    'tags.setDocument': {
      endpoint: 'setDocumentTags',
      orderKey: () => 'tags',
      params: ({ deeplink }) => ({ id: deeplink }),
      body: ({ tag_ids, create }) => ({ tags: tag_ids, ...(create ? { create } : {}) }),
      async optimistic(ctx, { deeplink, tag_ids, create, card }) {
        const made = create?.length ? await createWrites(ctx, create) : [];
        const held = await (await ctx.mirror).get<LinkRecord>(LINKS, deeplink);
        return [...made, linkWrite(deeplink, tag_ids, card ?? held?.card)];
      },
      // The server's tags stand (an existing tag of that name keeps its own id). The link is
      // written again only when they differ from the optimistic record's, which keeps its card.
      confirm: ({ create, tag_ids, card }, result) => [
        ...(create ?? [])
          .filter((c) => !result.created.some((t) => t.id === c.id))
          .map((c) => ({ store: TAGS, key: c.id }) as PatchItem<S>),
        ...result.created.map((t) => ({ store: TAGS, key: t.id, value: t }) as PatchItem<S>),
        ...(sameTags(tag_ids, result.tag_ids)
          ? []
          : [linkWrite(result.deeplink, result.tag_ids, card)]),
      ],
      deferred: () => undefined,
    },
  },
  changes: {
    tag(change, tx) {
      if (change.op === 'upsert') {
        tx.put(TAGS, change.data.id, change.data);
        return;
      }
      tx.put(TAGS, change.id, undefined);
      // Its links went with it on the server: drop them here (a range of records, after).
      tx.after(async (ctx) => {
        const mirror = await ctx.mirror;
        const owner = ctx.owner();
        const writes = await unlinkWrites(mirror, change.id);
        if (owner && writes.length) await ctx.reads.store(writes, owner);
      });
    },
    tag_merge(change, tx) {
      if (change.op !== 'upsert') return;
      tx.put(TAGS, change.data.from, undefined);
      // The documents of `from` carry `into` now: a range of records, after the pull.
      tx.after(async (ctx) => {
        const mirror = await ctx.mirror;
        const owner = ctx.owner();
        const writes = await mergeWrites(mirror, change.data);
        if (owner && writes.length) await ctx.reads.store(writes, owner);
      });
    },
    async document_tags(change, tx) {
      if (change.op !== 'upsert') {
        tx.put(LINKS, change.id, undefined);
        return;
      }
      const { deeplink, tag_ids, card } = change.data;
      // A change recorded before links carried cards: the card held stands.
      const held = card ? undefined : await tx.get<LinkRecord>(LINKS, deeplink);
      const write = linkWrite(deeplink, tag_ids, card ?? held?.card);
      tx.put(LINKS, write.key, write.value);
    },
  },
  async refresh(ctx) {
    await pullTags(ctx);
    await pullLinks(ctx);
  },
});
