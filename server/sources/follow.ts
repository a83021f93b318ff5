import type { Source } from '../../contract/sources';
import {
  FeedTouches,
  addSourceEntries,
  addSourceToBoards,
  countSourceDocs,
  countSourceEntries,
  homeFeedId,
  removeSourceEntries,
  removeSourceFromBoards,
} from '../boards';
import type { Db } from '../db/schema';
import { lockContent, reserveSeqs } from '../documents';
import { scheduleSoon } from '../ingest';
import { recordChange } from '../sync';
import { iso } from '../time';
import { sourceFor } from '../catalogue';

/**
 * Following and unfollowing, inside the request's transaction. A follow brings the source's
 * existing documents into the home feed (and into the user's boards that read it) and makes its
 * first fetch due at once; an unfollow marks them removed there. Each writes the 'follow'
 * change and one 'feed' change per feed it touched. Lock order, as every content writer and
 * the ingestion runner: the content counter, then the user's row (changes), then the ingest job.
 */

export async function followSource(
  db: Db,
  userId: string,
  sourceId: string,
  now: number,
): Promise<Source> {
  await lockContent(db);
  const claimed = await db
    .insertInto('source_follows')
    .values({ user_id: userId, source_id: sourceId, priority: 0, created_at: iso(now) })
    .onConflict((oc) => oc.columns(['user_id', 'source_id']).doNothing())
    .returning('source_id')
    .executeTakeFirst();
  if (claimed) {
    const touches = new FeedTouches();
    const n = await countSourceDocs(db, userId, sourceId);
    if (n > 0) {
      const base = await reserveSeqs(db, n);
      await addSourceEntries(db, homeFeedId(userId), userId, sourceId, base);
      touches.add(userId, homeFeedId(userId), base + n - 1);
    }
    await addSourceToBoards(db, userId, sourceId, now, touches);
    await touches.notify(db, now);
  }
  // The first fetch is due at once (the runner's next tick), and the status says so.
  if (claimed) await scheduleSoon(db, sourceId, now);
  const source = await sourceFor(db, userId, sourceId);
  if (claimed) {
    await recordChange(
      db,
      userId,
      { entity: 'follow', entity_id: sourceId, op: 'upsert', data: source },
      now,
    );
  }
  return source;
}

export async function unfollowSource(
  db: Db,
  userId: string,
  sourceId: string,
  now: number,
): Promise<Source> {
  await lockContent(db);
  const removed = await db
    .deleteFrom('source_follows')
    .where('user_id', '=', userId)
    .where('source_id', '=', sourceId)
    .returning('source_id')
    .executeTakeFirst();
  if (removed) {
    const touches = new FeedTouches();
    const home = homeFeedId(userId);
    const n = await countSourceEntries(db, home, sourceId);
    if (n > 0) {
      const base = await reserveSeqs(db, n);
      await removeSourceEntries(db, home, sourceId, base);
      touches.add(userId, home, base + n - 1);
    }
    await removeSourceFromBoards(db, userId, sourceId, now, touches);
    await touches.notify(db, now);
  }
  const source = await sourceFor(db, userId, sourceId);
  if (removed) {
    await recordChange(
      db,
      userId,
      { entity: 'follow', entity_id: sourceId, op: 'delete', data: source },
      now,
    );
  }
  return source;
}

/** Sets priority on followed sources; answers how many changed (each a 'follow' change). */
export async function setPriority(
  db: Db,
  userId: string,
  sourceIds: string[],
  priority: boolean,
  now: number,
): Promise<number> {
  const changed = await db
    .updateTable('source_follows')
    .set({ priority: priority ? 1 : 0 })
    .where('user_id', '=', userId)
    .where('source_id', 'in', sourceIds)
    .where('priority', '=', priority ? 0 : 1)
    .returning('source_id')
    .execute();
  for (const { source_id } of changed) {
    const data = await sourceFor(db, userId, source_id);
    await recordChange(
      db,
      userId,
      { entity: 'follow', entity_id: source_id, op: 'upsert', data },
      now,
    );
  }
  return changed.length;
}
