import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  BOOKMARK_TAG_ID,
  bookmarkTagName,
  MAX_USER_TAGS,
  tagKey,
  type DocumentTags,
  type Tag,
  type TagLink,
} from '../../contract/tags';
import type { ResultCard } from '../../contract/documents';
import type { Db } from '../db/schema';
import { CARD_COLUMNS, toCard, visibleDocuments, type CardRow } from '../documents';
import { ApiError, badRequest } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';

const TAG_COLUMNS = ['id', 'name', 'created_at'] as const;

const notFound = (what: string) => new ApiError(404, 'not_found', what);

/** Every tag of the user, oldest first. */
export const userTags = (db: Db, userId: string): Promise<Tag[]> =>
  db
    .selectFrom('user_tags')
    .select(TAG_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/**
 * Creates the user's tag `name` (trimmed by the contract), or answers the one of that name
 * already there. The reserved bookmark name always takes BOOKMARK_TAG_ID (so two devices
 * creating it make one tag), and only it may. Call inside the request's transaction.
 */
export async function createTag(
  db: Db,
  userId: string,
  input: { name: string; id?: string },
  product: string,
  now: number,
): Promise<{ tag: Tag; created: boolean }> {
  await lockUserRow(db, userId);
  const key = tagKey(input.name);
  const existing = await db
    .selectFrom('user_tags')
    .select(TAG_COLUMNS)
    .where('user_id', '=', userId)
    .where('name_key', '=', key)
    .executeTakeFirst();
  if (existing) return { tag: existing, created: false };
  const reserved = key === tagKey(bookmarkTagName(product));
  if (!reserved && input.id === BOOKMARK_TAG_ID) {
    throw badRequest(`id "${BOOKMARK_TAG_ID}" is reserved for the bookmark tag`);
  }
  const count = await db
    .selectFrom('user_tags')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_USER_TAGS) {
    throw badRequest(`a user holds at most ${MAX_USER_TAGS} tags`);
  }
  const id = reserved ? BOOKMARK_TAG_ID : (input.id ?? randomUUID());
  const taken = await db
    .selectFrom('user_tags')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (taken) throw new ApiError(409, 'conflict', `tag id ${id} is already used by another tag`);
  const tag: Tag = { id, name: input.name, created_at: iso(now) };
  await db
    .insertInto('user_tags')
    .values({ user_id: userId, ...tag, name_key: key })
    .execute();
  await recordChange(db, userId, { entity: 'tag', entity_id: id, op: 'upsert', data: tag }, now);
  return { tag, created: true };
}

/**
 * Deletes the user's tag and its links; 404 when the user has no such tag. One 'tag' delete
 * change says so (the mirror drops the tag's links with it). Answers how many links went.
 */
export async function deleteTag(db: Db, userId: string, tagId: string, now: number) {
  await lockUserRow(db, userId);
  const tag = await db
    .selectFrom('user_tags')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', tagId)
    .executeTakeFirst();
  if (!tag) throw notFound(`no such tag: ${tagId}`);
  const links = await db
    .deleteFrom('document_tags')
    .where('user_id', '=', userId)
    .where('tag_id', '=', tagId)
    .executeTakeFirst();
  await db.deleteFrom('user_tags').where('user_id', '=', userId).where('id', '=', tagId).execute();
  await recordChange(
    db,
    userId,
    { entity: 'tag', entity_id: tagId, op: 'delete', data: null },
    now,
  );
  return Number(links.numDeletedRows);
}

const assertVisible = async (db: Db, userId: string, deeplink: string) => {
  const doc = await visibleDocuments(db, userId)
    .select('d.id')
    .where('d.id', '=', deeplink)
    .executeTakeFirst();
  if (!doc) throw notFound(`no such document: ${deeplink}`);
};

/** The cards of the documents of `ids` the user may see, by deeplink. */
async function cardsOf(db: Db, userId: string, ids: string[]): Promise<Map<string, ResultCard>> {
  if (ids.length === 0) return new Map();
  const rows = await visibleDocuments(db, userId)
    .select([...CARD_COLUMNS])
    .where('d.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, toCard(r as CardRow)]));
}

/** The user's tags on one document (404 when the user may not see it). */
export async function documentTags(db: Db, userId: string, deeplink: string): Promise<Tag[]> {
  await assertVisible(db, userId, deeplink);
  return db
    .selectFrom('document_tags as l')
    .innerJoin('user_tags as t', (join) =>
      join.onRef('t.id', '=', 'l.tag_id').onRef('t.user_id', '=', 'l.user_id'),
    )
    .select(['t.id', 't.name', 't.created_at'])
    .where('l.user_id', '=', userId)
    .where('l.document_id', '=', deeplink)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
}

/**
 * Sets the user's tags on a document to exactly `tagIds` (each one of the user's own tags,
 * else 400); 404 for a document the user may not see. A change is recorded when the set moved.
 * Call inside the request's transaction.
 */
export async function setDocumentTags(
  db: Db,
  userId: string,
  deeplink: string,
  tagIds: readonly string[],
  toCreate: ReadonlyArray<{ id: string; tag: string }>,
  product: string,
  now: number,
): Promise<DocumentTags & { created: Tag[] }> {
  await lockUserRow(db, userId);
  await assertVisible(db, userId, deeplink);
  // Tags to create first: an id of `tagIds` naming one stands for the tag its name resolves to.
  const created: Tag[] = [];
  const resolved = new Map<string, string>();
  for (const item of toCreate) {
    const { tag } = await createTag(db, userId, { name: item.tag, id: item.id }, product, now);
    created.push(tag);
    resolved.set(item.id, tag.id);
  }
  const wanted = [...new Set(tagIds.map((t) => resolved.get(t) ?? t))].sort();
  if (wanted.length > 0) {
    const known = await db
      .selectFrom('user_tags')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', wanted)
      .execute();
    const ids = new Set(known.map((k) => k.id));
    const unknown = wanted.find((t) => !ids.has(t));
    if (unknown !== undefined) throw badRequest(`tags: no such tag: ${unknown}`);
  }
  const current = (
    await db
      .selectFrom('document_tags')
      .select('tag_id')
      .where('user_id', '=', userId)
      .where('document_id', '=', deeplink)
      .execute()
  ).map((r) => r.tag_id);
  const removed = current.filter((t) => !wanted.includes(t));
  const added = wanted.filter((t) => !current.includes(t));
  if (removed.length > 0) {
    await db
      .deleteFrom('document_tags')
      .where('user_id', '=', userId)
      .where('document_id', '=', deeplink)
      .where('tag_id', 'in', removed)
      .execute();
  }
  if (added.length > 0) {
    await db
      .insertInto('document_tags')
      .values(
        added.map((tag_id) => ({
          user_id: userId,
          tag_id,
          document_id: deeplink,
          created_at: iso(now),
        })),
      )
      .execute();
  }
  const result: DocumentTags = { deeplink, tag_ids: wanted };
  if (removed.length > 0 || added.length > 0) {
    // With the card: another device's tag page lists the document from its mirror.
    const card = (await cardsOf(db, userId, [deeplink])).get(deeplink);
    const data: TagLink = card ? { ...result, card } : result;
    await recordChange(
      db,
      userId,
      { entity: 'document_tags', entity_id: deeplink, op: 'upsert', data },
      now,
    );
  }
  return { ...result, created };
}

/**
 * A page of the user's links: the documents after `after` (deeplink order), with their tags,
 * and with `cards` each visible document's card.
 */
export async function tagLinks(
  db: Db,
  userId: string,
  after: string | undefined,
  limit: number,
  cards = false,
) {
  let docs = db
    .selectFrom('document_tags')
    .select('document_id')
    .distinct()
    .where('user_id', '=', userId)
    .orderBy('document_id')
    .limit(limit + 1);
  if (after !== undefined) docs = docs.where('document_id', '>', after);
  const ids = (await docs.execute()).map((r) => r.document_id);
  const page = ids.slice(0, limit);
  const rows =
    page.length === 0
      ? []
      : await db
          .selectFrom('document_tags')
          .select(['document_id', 'tag_id'])
          .where('user_id', '=', userId)
          .where('document_id', 'in', page)
          .execute();
  const byDoc = new Map<string, string[]>(page.map((d) => [d, []]));
  for (const r of rows) byDoc.get(r.document_id)!.push(r.tag_id);
  const cardOf = cards ? await cardsOf(db, userId, page) : new Map<string, ResultCard>();
  return {
    links: page.map((deeplink): TagLink => {
      const card = cardOf.get(deeplink);
      return { deeplink, tag_ids: byDoc.get(deeplink)!.sort(), ...(card ? { card } : {}) };
    }),
    cursor: page.at(-1) ?? null,
    has_more: ids.length > limit,
  };
}

/** The needlbox's sources: bookmarked documents, and documents with any other tag. */
export async function needlboxSources(db: Db, userId: string) {
  const count = async (bookmarks: boolean) => {
    const row = await db
      .selectFrom('document_tags')
      .select(sql<number>`cast(count(distinct document_id) as integer)`.as('n'))
      .where('user_id', '=', userId)
      .where('tag_id', bookmarks ? '=' : '<>', BOOKMARK_TAG_ID)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    results: [
      { key: 'bookmarks' as const, label: 'Bookmarks', count: await count(true) },
      { key: 'tags' as const, label: 'Tags', count: await count(false) },
    ],
  };
}
