import type { SourceBoard, SourceBoardsBody } from '../../contract/sources';
import { editBoard, listBoards, toBoard } from '../boards';
import type { Db } from '../db/schema';
import { lockContent } from '../documents';
import { ApiError } from '../errors';

/**
 * Add to feeds (contract/sources.ts `SourceBoards`): which of the user's own feeds read a source,
 * and making exactly the chosen ones read it. Only the user's feeds are read or changed (every
 * query by user id); a changed feed is edited as the builder would (a new version, its entries
 * rebuilt, a 'board' change for the user's other devices).
 */

type BoardRow = Awaited<ReturnType<typeof listBoards>>[number];

/** The picker lists feeds by name (then id, so two of one name keep one order). */
const byName = (a: SourceBoard, b: SourceBoard) =>
  a.board_name.localeCompare(b.board_name, 'en', { sensitivity: 'base' }) ||
  (a.board_id < b.board_id ? -1 : a.board_id > b.board_id ? 1 : 0);

const refused = (message: string) =>
  new ApiError(400, 'bad_request', `boards: ${message}`, [{ path: 'boards', message }]);

const entryOf = (row: BoardRow, sourceId: string, now: number): SourceBoard => {
  const { definition } = toBoard(row, now);
  const readsAll = definition.sources.length === 0;
  return {
    board_id: row.id,
    board_name: row.name,
    selected: readsAll || definition.sources.includes(sourceId),
    reads_all: readsAll,
  };
};

export async function sourceBoards(
  db: Db,
  userId: string,
  sourceId: string,
  now: number,
): Promise<SourceBoard[]> {
  return (await listBoards(db, userId, true))
    .map((row) => entryOf(row, sourceId, now))
    .sort(byName);
}

/** Makes exactly `body.boards` of the user's feeds read the source. Inside the request's transaction. */
export async function setSourceBoards(
  db: Db,
  userId: string,
  sourceId: string,
  body: SourceBoardsBody,
  now: number,
): Promise<SourceBoard[]> {
  // Read after taking the content lock every feed edit takes, so concurrent edits take turns.
  await lockContent(db);
  const rows = await listBoards(db, userId, true);
  const wanted = new Set(body.boards);
  const unknown = [...wanted].filter((id) => !rows.some((r) => r.id === id));
  if (unknown.length) throw refused(`no such feed: ${unknown.join(', ')}`);
  const out: SourceBoard[] = [];
  for (const row of rows) {
    const board = toBoard(row, now);
    const sources = board.definition.sources;
    const want = wanted.has(row.id);
    if (sources.length === 0) {
      if (!want) {
        throw refused(
          `“${row.name}” reads every source you follow; edit the feed to choose its sources`,
        );
      }
      out.push(entryOf(row, sourceId, now));
      continue;
    }
    const has = sources.includes(sourceId);
    if (want === has) {
      out.push(entryOf(row, sourceId, now));
      continue;
    }
    const next = want ? [...sources, sourceId] : sources.filter((s) => s !== sourceId);
    if (next.length === 0) {
      throw refused(`“${row.name}” reads only this source; a feed keeps at least one`);
    }
    if (next.length > 500) throw refused(`“${row.name}” already reads 500 sources`);
    const draft = {
      board_name: row.name,
      description: row.description,
      kind: row.kind,
      definition: { ...board.definition, sources: next },
    };
    out.push(entryOf(await editBoard(db, row, draft, now), sourceId, now));
  }
  return out.sort(byName);
}
