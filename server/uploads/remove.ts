import { FeedTouches } from '../boards';
import type { Db } from '../db/schema';
import { lockContent, reserveSeqs } from '../documents';
import { engineFor } from '../search';
import './tables';

/**
 * What a later domain does when one of a user's uploaded documents is deleted (uploads may not
 * import them: it sits first in the domain order). It runs in the delete's transaction while
 * the document's row still exists and answers the storage keys of that domain's files of it
 * (e.g. its summary PDF), which the delete removes from storage after the commit.
 */
export type UploadedDocumentDeleted = (
  db: Db,
  userId: string,
  documentId: string,
) => Promise<string[]>;

const deletedListeners = new Set<UploadedDocumentDeleted>();

/** Registers a listener (once: the same function registered again is kept once). */
export function onUploadedDocumentDeleted(listener: UploadedDocumentDeleted): void {
  deletedListeners.add(listener);
}

/**
 * Deletes an uploaded document in the caller's transaction: out of the search index (its
 * passages and words), its feed entries (each feed it was in hears of it: one 'feed' change
 * per feed), what later domains keep of it (onUploadedDocumentDeleted), its page positions and
 * share keys (by foreign key), then the row. It answers the storage keys the listeners named:
 * stored bytes go after the commit (the caller's): bytes without a row are only disk, a row
 * without bytes would be a broken file.
 */
export async function deleteUploadedDocument(
  db: Db,
  userId: string,
  documentId: string,
  now: number,
): Promise<string[]> {
  await lockContent(db);
  const doc = await db
    .selectFrom('documents')
    .select(['id', 'seq'])
    .where('id', '=', documentId)
    .where('owner_user_id', '=', userId)
    .executeTakeFirst();
  if (!doc) return [];
  await engineFor(db).unindex(db, [{ id: doc.id, seq: Number(doc.seq) }]);
  const feeds = await db
    .selectFrom('feed_entries')
    .select('feed_id')
    .where('document_id', '=', doc.id)
    .where('removed', '=', 0)
    .execute();
  if (feeds.length) {
    const seq = await reserveSeqs(db, 1);
    const touches = new FeedTouches();
    for (const { feed_id } of feeds) touches.add(userId, feed_id, seq);
    await touches.notify(db, now);
  }
  const keys: string[] = [];
  for (const listener of deletedListeners) keys.push(...(await listener(db, userId, doc.id)));
  await db.deleteFrom('feed_entries').where('document_id', '=', doc.id).execute();
  await db.deleteFrom('documents').where('id', '=', doc.id).execute();
  return keys;
}
