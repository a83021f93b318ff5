import {
  compileDefinition,
  parseDefinition,
  type CompiledDefinition,
  type MatchDoc,
} from './match';
import type { Db } from '../db/schema';
import { homeFeedId } from './feed-entries';

/** A feed a new document may join: a board of one of its source's followers. */
export type ReadingBoard = { id: string; userId: string; query: CompiledDefinition };

/** The boards of these users that read `sourceId` (they name it, or name no source at all). */
export async function boardsReading(
  db: Db,
  userIds: string[],
  sourceId: string,
  now: number,
): Promise<ReadingBoard[]> {
  const out: ReadingBoard[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('boards')
      .select(['id', 'user_id', 'definition'])
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const definition = parseDefinition(row.definition);
      if (!definition) continue;
      const query = compileDefinition(definition, now);
      if (!query.sources || query.sources.has(sourceId)) {
        out.push({ id: row.id, userId: row.user_id, query });
      }
    }
  }
  return out;
}

/**
 * The feeds a new document joins: the home feed of each follower who may see it (a document
 * with an owner is that user's alone) and each of their boards whose query it matches.
 */
export function* entryTargets(
  doc: MatchDoc & { owner_user_id: string | null },
  followers: string[],
  boards: ReadingBoard[],
): Generator<{ userId: string; feedId: string }> {
  const maySee = (userId: string) => doc.owner_user_id === null || doc.owner_user_id === userId;
  for (const userId of followers) if (maySee(userId)) yield { userId, feedId: homeFeedId(userId) };
  for (const board of boards) {
    if (maySee(board.userId) && board.query.matches(doc)) {
      yield { userId: board.userId, feedId: board.id };
    }
  }
}
