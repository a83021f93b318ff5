import { feedTabOf } from '../../contract/documents';
import type { Db } from '../db/schema';
import {
  countSourceEntries,
  removeSourceEntries,
  upsertEntries,
  type EntryRow,
  type FeedTouches,
} from './feed-entries';
import { boardsReading } from './fan-out';
import { scanDocuments, type ScannedDoc } from './scan';
import { reserveSeqs } from '../documents';
import { compileDefinition, parseDefinition, type CompiledDefinition } from './match';

/**
 * A board's entries from its definition: its sources ∩ what its owner follows, then its
 * keywords, filters and dates. Written when the board is created or edited (rebuilt under a
 * new version) and when its owner follows or unfollows a source it reads. Callers hold the
 * content counter's lock (reserveSeqs) before anything else, as every content writer does.
 */

/** The source ids a definition reads for its owner: the ones it names that they follow. */
export async function readSourceIds(
  db: Db,
  userId: string,
  query: Pick<CompiledDefinition, 'sources'>,
): Promise<string[]> {
  const followed = (
    await db
      .selectFrom('source_follows')
      .select('source_id')
      .where('user_id', '=', userId)
      .execute()
  ).map((r) => r.source_id);
  return query.sources ? followed.filter((id) => query.sources!.has(id)) : followed;
}

const entryOf = (feedId: string, doc: ScannedDoc, seq: number): EntryRow => ({
  feed_id: feedId,
  document_id: doc.id,
  unix: doc.unix,
  tab: feedTabOf(doc),
  company: doc.company_name,
  category: doc.category,
  entry_seq: seq,
  removed: 0,
});

/** Writes the matching documents of `sourceIds` into a feed; answers the newest number, or 0. */
async function writeMatches(
  db: Db,
  feedId: string,
  userId: string,
  sourceIds: string[],
  query: CompiledDefinition,
): Promise<number> {
  const matched: ScannedDoc[] = [];
  const scope = { userId, sourceIds, from: query.from, to: query.to };
  for await (const chunk of scanDocuments(db, scope)) {
    for (const doc of chunk) if (query.matches(doc)) matched.push(doc);
  }
  if (matched.length === 0) return 0;
  const base = await reserveSeqs(db, matched.length);
  await upsertEntries(
    db,
    matched.map((doc, i) => entryOf(feedId, doc, base + i)),
  );
  return base + matched.length - 1;
}

/**
 * Replaces a board's entries with what its definition selects now (the caller bumped its
 * version, so mirrors start over). Answers the newest entry number, or 0 when empty.
 */
export async function rebuildBoardEntries(
  db: Db,
  board: { id: string; user_id: string; definition: string },
  now: number,
): Promise<number> {
  await reserveSeqs(db, 0);
  await db.deleteFrom('feed_entries').where('feed_id', '=', board.id).execute();
  const definition = parseDefinition(board.definition);
  if (!definition) return 0;
  const query = compileDefinition(definition, now);
  const sourceIds = await readSourceIds(db, board.user_id, query);
  return writeMatches(db, board.id, board.user_id, sourceIds, query);
}

/** A newly followed source's matching documents into the follower's boards that read it. */
export async function addSourceToBoards(
  db: Db,
  userId: string,
  sourceId: string,
  now: number,
  touches: FeedTouches,
): Promise<void> {
  for (const board of await boardsReading(db, [userId], sourceId, now)) {
    const seq = await writeMatches(db, board.id, userId, [sourceId], board.query);
    if (seq) touches.add(userId, board.id, seq);
  }
}

/** An unfollowed source's documents leave the follower's boards (marked removed). */
export async function removeSourceFromBoards(
  db: Db,
  userId: string,
  sourceId: string,
  now: number,
  touches: FeedTouches,
): Promise<void> {
  for (const board of await boardsReading(db, [userId], sourceId, now)) {
    const n = await countSourceEntries(db, board.id, sourceId);
    if (n === 0) continue;
    const base = await reserveSeqs(db, n);
    await removeSourceEntries(db, board.id, sourceId, base);
    touches.add(userId, board.id, base + n - 1);
  }
}
