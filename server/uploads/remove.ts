import { FeedTouches } from '../boards';
import type { Db } from '../db/schema';
import { lockContent, reserveSeqs } from '../documents';
import { engineFor } from '../search';
import './tables';

/**
 * Deletes an uploaded document in the caller's transaction: out of the search index (its
 * passages and words), its feed entries (each feed it was in hears of it: one 'feed' change
 * per feed), its page positions and share keys (by foreign key), then the row. The stored
 * bytes go after the commit (the caller's): bytes without a row are only disk, a row without
 * bytes would be a broken file.
 */
export async function deleteUploadedDocument(
  db: Db,
  userId: string,
  documentId: string,
  now: number,
): Promise<void> {
  await lockContent(db);
  const doc = await db
    .selectFrom('documents')
    .select(['id', 'seq'])
    .where('id', '=', documentId)
    .where('owner_user_id', '=', userId)
    .executeTakeFirst();
  if (!doc) return;
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
  await db.deleteFrom('feed_entries').where('document_id', '=', doc.id).execute();
  await db.deleteFrom('documents').where('id', '=', doc.id).execute();
}
