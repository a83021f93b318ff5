import {
  BOOKMARK_TAG_ID,
  tagKey,
  tags,
  type DocumentTags,
  type Tag,
  type TagMerge,
} from '../../contract/tags';
import { sessionChanged } from '../api-errors';
import type { Mirror, PatchItem } from '../mirror';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../registry';

/**
 * Tags and bookmarks in the mirror. Store 'tags' holds the user's tags by id; store
 * 'document_tags' one record per tagged document (`{ deeplink, tag_ids }`, indexed by tag). Each
 * store's progress is one record under LIST_KEY, which no id can equal. Both are pulled once
 * (GET /tag/user-tags, GET /tag/links by cursor), then kept by the change feed ('tag',
 * 'document_tags') and by the user's own writes: optimistic through the outbox, in one queue
 * (a tag is created before the document naming it is sent), rolled back with the server's
 * message when it refuses. A bookmark is the reserved tag BOOKMARK_TAG_ID.
 */

type S = StoreOf<typeof tags>;
type Ctx = DomainContext<S>;

const TAGS = 'tags' satisfies S;
const LINKS = 'document_tags' satisfies S;
/** Not an id (ids are 1 to 128 visible characters). */
export const LIST_KEY = '\u0000list';
const BY_TAG = 'by_tag';
const PAGE = 5000;
/** Documents one tag's removal unlinks in the mirror, at most (an IndexedDB count). */
const UNLINK_SCAN = 1_000_000;

type TagsList = { id: typeof LIST_KEY; complete: boolean };
type LinksList = {
  deeplink: typeof LIST_KEY;
  tag_ids: [];
  cursor: string | null;
  complete: boolean;
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
    let list = (await mirror.get<LinksList>(LINKS, LIST_KEY)) ?? {
      deeplink: LIST_KEY,
      tag_ids: [],
      cursor: null,
      complete: false,
    };
    for (;;) {
      const page = await ctx.client.call('tagLinks', {
        query: { limit: PAGE, ...(list.cursor !== null ? { after: list.cursor } : {}) },
        background: true,
        signal: ctx.signal(),
      });
      list = { ...list, cursor: page.cursor ?? list.cursor, complete: !page.has_more };
      const items: PatchItem<S>[] = page.links.map((link) => ({
        store: LINKS,
        key: link.deeplink,
        value: link,
      }));
      items.push({ store: LINKS, key: LIST_KEY, value: list });
      if (!(await ctx.reads.store(items, owner))) throw sessionChanged('document_tags');
      if (!page.has_more || page.links.length === 0) return;
    }
  });

/** Pulls what the mirror does not hold yet: awaited the first time (offline: what it has). */
async function ensure(ctx: Ctx, store: S) {
  const mirror = await ctx.mirror;
  const list = await mirror.get<{ complete: boolean }>(store, LIST_KEY);
  if (list?.complete) return;
  const pulled = store === TAGS ? pullTags(ctx) : pullLinks(ctx);
  if (!list) await pulled.catch(() => {});
  else ctx.track(pulled.catch(() => {}));
}

/** A document's record as written: its tags sorted and unique; none deletes the record. */
const linkWrite = (deeplink: string, tagIds: readonly string[]): PatchItem<S> => {
  const ids = [...new Set(tagIds)].sort();
  return {
    store: LINKS,
    key: deeplink,
    value: ids.length ? ({ deeplink, tag_ids: ids } satisfies DocumentTags) : undefined,
  };
};

/** The writes that take `tagId` off every mirrored document carrying it. */
async function unlinkWrites(mirror: Mirror<S>, tagId: string): Promise<PatchItem<S>[]> {
  const carrying = await mirror.transact([LINKS], (tx) =>
    tx.indexRange<DocumentTags>(LINKS, BY_TAG, { lower: tagId, upper: tagId }, UNLINK_SCAN),
  );
  return carrying.map((link) =>
    linkWrite(
      link.deeplink,
      link.tag_ids.filter((t) => t !== tagId),
    ),
  );
}

/** The writes that move every mirrored document carrying `from` to `into` (the Tags Manager's merge). */
async function mergeWrites(mirror: Mirror<S>, { from, into }: TagMerge): Promise<PatchItem<S>[]> {
  const carrying = await mirror.transact([LINKS], (tx) =>
    tx.indexRange<DocumentTags>(LINKS, BY_TAG, { lower: from, upper: from }, UNLINK_SCAN),
  );
  return [
    { store: TAGS, key: from },
    ...carrying.map((link) =>
      linkWrite(
        link.deeplink,
        link.tag_ids.map((t) => (t === from ? into : t)),
      ),
    ),
  ];
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
      indexes: { [BY_TAG]: { keyPath: 'tag_ids', multiEntry: true } },
      version: 1,
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
      async optimistic(ctx, { deeplink, tag_ids, create }) {
        const made = create?.length ? await createWrites(ctx, create) : [];
        return [...made, linkWrite(deeplink, tag_ids)];
      },
      // The server's tags stand (an existing tag of that name keeps its own id).
      confirm: ({ create }, result) => [
        ...(create ?? [])
          .filter((c) => !result.created.some((t) => t.id === c.id))
          .map((c) => ({ store: TAGS, key: c.id }) as PatchItem<S>),
        ...result.created.map((t) => ({ store: TAGS, key: t.id, value: t }) as PatchItem<S>),
        linkWrite(result.deeplink, result.tag_ids),
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
    document_tags(change, tx) {
      if (change.op === 'upsert') {
        const write = linkWrite(change.data.deeplink, change.data.tag_ids);
        tx.put(LINKS, write.key, write.value);
      } else tx.put(LINKS, change.id, undefined);
    },
  },
  async refresh(ctx) {
    await pullTags(ctx);
    await pullLinks(ctx);
  },
});
