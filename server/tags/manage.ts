import { BOOKMARK_TAG_ID, tagKey, type Tag } from '../../contract/tags';
import type { Db } from '../db/schema';
import { ApiError, badRequest } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';

/**
 * The Tags Manager's writes (`/settings/tags`): rename and merge. Both refuse the bookmark tag
 * (its name is reserved) and answer 404 for a tag the user does not hold. Call inside the
 * request's transaction.
 */

const TAG_COLUMNS = ['id', 'name', 'created_at'] as const;

async function ownTag(db: Db, userId: string, tagId: string, field: string): Promise<Tag> {
  if (tagId === BOOKMARK_TAG_ID) {
    throw badRequest(`${field}: the bookmark tag cannot be renamed or merged`);
  }
  const tag = await db
    .selectFrom('user_tags')
    .select(TAG_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', tagId)
    .executeTakeFirst();
  if (!tag) throw new ApiError(404, 'not_found', `no such tag: ${tagId}`);
  return tag;
}

/** Renames the user's tag; 409 when another of their tags has that name (case-insensitively). */
export async function renameTag(
  db: Db,
  userId: string,
  tagId: string,
  name: string,
  now: number,
): Promise<Tag> {
  await lockUserRow(db, userId);
  const tag = await ownTag(db, userId, tagId, 'tag_id');
  const key = tagKey(name);
  const other = await db
    .selectFrom('user_tags')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .where('name_key', '=', key)
    .where('id', '<>', tagId)
    .executeTakeFirst();
  if (other) {
    throw new ApiError(
      409,
      'conflict',
      `a tag named "${other.name}" already exists; merge the two tags instead`,
    );
  }
  if (tag.name === name) return tag;
  await db
    .updateTable('user_tags')
    .set({ name, name_key: key })
    .where('user_id', '=', userId)
    .where('id', '=', tagId)
    .execute();
  const renamed: Tag = { ...tag, name };
  await recordChange(
    db,
    userId,
    { entity: 'tag', entity_id: tagId, op: 'upsert', data: renamed },
    now,
  );
  return renamed;
}

/**
 * Merges tag `from` into `into`: every document carrying `from` carries `into` instead (once),
 * and `from` goes. One 'tag_merge' change says so. Answers the tag that stands and how many
 * documents carried `from`.
 */
export async function mergeTags(
  db: Db,
  userId: string,
  from: string,
  into: string,
  now: number,
): Promise<{ tag: Tag; moved: number }> {
  await lockUserRow(db, userId);
  await ownTag(db, userId, from, 'from');
  const target = await ownTag(db, userId, into, 'into');
  const intoDocs = db
    .selectFrom('document_tags')
    .select('document_id')
    .where('user_id', '=', userId)
    .where('tag_id', '=', into);
  // The documents that had `from` and not yet `into` get `into` (one statement, any size).
  await db
    .insertInto('document_tags')
    .columns(['user_id', 'tag_id', 'document_id', 'created_at'])
    .expression(
      db
        .selectFrom('document_tags')
        .select((eb) => [
          eb.val(userId).as('user_id'),
          eb.val(into).as('tag_id'),
          'document_id',
          eb.val(iso(now)).as('created_at'),
        ])
        .where('user_id', '=', userId)
        .where('tag_id', '=', from)
        .where('document_id', 'not in', intoDocs),
    )
    .execute();
  const removed = await db
    .deleteFrom('document_tags')
    .where('user_id', '=', userId)
    .where('tag_id', '=', from)
    .executeTakeFirst();
  await db.deleteFrom('user_tags').where('user_id', '=', userId).where('id', '=', from).execute();
  await recordChange(
    db,
    userId,
    { entity: 'tag_merge', entity_id: from, op: 'upsert', data: { from, into } },
    now,
  );
  return { tag: target, moved: Number(removed.numDeletedRows) };
}
