import { randomUUID } from 'node:crypto';
import type { User } from '../../contract/auth';
import {
  EMPTY_DEFINITION,
  HOME_BOARD,
  type Board,
  type BoardDefinition,
  type BoardDraft,
} from '../../contract/boards';
import { sourceTitle } from '../../contract/source-catalogue';
import type { Database, Db } from '../db/schema';
import { FeedTouches, homeFeedId } from './feed-entries';
import { lockContent } from '../documents';
import { ApiError } from '../errors';
import { recordChange } from '../sync';
import { iso } from '../time';
import { rebuildBoardEntries } from './build';
import { definitionProblem, parseDefinition } from './match';
import './tables';

/**
 * Boards are their owner's alone: every read and write is by (id, user); someone else's board
 * answers 404 as if it did not exist. `home` is every source the user follows, with no row.
 */

type BoardRow = Database['boards'];

export const notFound = (id: string) => new ApiError(404, 'not_found', `no such feed: ${id}`);
const bad = (path: string, message: string) =>
  new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);

export const toBoard = (row: BoardRow, now: number): Board => ({
  board_id: row.id,
  board_name: row.name,
  description: row.description,
  created_at: row.created_at,
  updated_at: row.updated_at,
  enabled: row.enabled === 1,
  hidden: row.enabled !== 1,
  isNew: row.created_at.slice(0, 10) === iso(now).slice(0, 10),
  kind: row.kind,
  definition: parseDefinition(row.definition) ?? EMPTY_DEFINITION,
  version: Number(row.version),
});

/** `home` as a board: every followed source, never edited (version 0). */
export const homeBoard = (user: User, product: string, now: number): Board => ({
  board_id: HOME_BOARD,
  board_name: sourceTitle(HOME_BOARD, product),
  description: 'Every source you follow',
  created_at: user.created_at,
  updated_at: user.created_at,
  enabled: true,
  hidden: false,
  isNew: user.created_at.slice(0, 10) === iso(now).slice(0, 10),
  kind: 'custom',
  definition: EMPTY_DEFINITION,
  version: 0,
});

export const ownBoard = async (db: Db, userId: string, id: string): Promise<BoardRow> => {
  const row = await db
    .selectFrom('boards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound(id);
  return row;
};

/** The feed behind an id: `home` or one of the user's boards. */
export async function resolveFeed(db: Db, userId: string, id: string) {
  if (id === HOME_BOARD)
    return { feedId: homeFeedId(userId), boardId: HOME_BOARD, version: 0, row: null };
  const row = await ownBoard(db, userId, id);
  return { feedId: row.id, boardId: row.id, version: Number(row.version), row };
}

export const listBoards = async (db: Db, userId: string, hidden: boolean) => {
  let q = db.selectFrom('boards').selectAll().where('user_id', '=', userId);
  if (!hidden) q = q.where('enabled', '=', 1);
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
};

/**
 * A definition as stored: keywords once per list (case-insensitively), none in both lists, each
 * marked valid (the schema refused invalid ones); filter names and sources checked. The sources
 * must be ones the user may see (public, or their own).
 */
export async function checkedDefinition(
  db: Db,
  userId: string,
  def: BoardDefinition,
): Promise<BoardDefinition> {
  const problem = definitionProblem(def);
  if (problem) throw bad(problem.path, problem.message);
  const once = (list: BoardDefinition['keywords']['include']) => {
    const seen = new Set<string>();
    return list
      .filter((k) => !seen.has(k.keyword.toLowerCase()) && seen.add(k.keyword.toLowerCase()))
      .map((k) => ({ keyword: k.keyword, valid: true }));
  };
  const include = once(def.keywords.include);
  const exclude = once(def.keywords.exclude);
  const both = include.find((k) =>
    exclude.some((e) => e.keyword.toLowerCase() === k.keyword.toLowerCase()),
  );
  if (both) {
    throw bad(
      'definition.keywords',
      `"${both.keyword}" cannot be both an include and an exclude keyword`,
    );
  }
  const sources = [...new Set(def.sources)];
  if (sources.length) {
    const known = new Set(
      (
        await db
          .selectFrom('sources')
          .select('id')
          .where('id', 'in', sources)
          .where((eb) => eb.or([eb('public', '=', 1), eb('owner_user_id', '=', userId)]))
          .execute()
      ).map((r) => r.id),
    );
    const unknown = sources.filter((id) => !known.has(id));
    if (unknown.length) throw bad('definition.sources', `no such source: ${unknown.join(', ')}`);
  }
  return { ...def, sources, keywords: { include, exclude } };
}

/** The 'board' change, and a 'feed' change when the board has entries to pull. */
async function announce(db: Db, row: BoardRow, entrySeq: number, now: number) {
  await recordChange(
    db,
    row.user_id,
    { entity: 'board', entity_id: row.id, op: 'upsert', data: toBoard(row, now) },
    now,
  );
  if (entrySeq) {
    const touches = new FeedTouches();
    touches.add(row.user_id, row.id, entrySeq);
    await touches.notify(db, now);
  }
}

/** Creates a board and builds its entries. Call inside the request's transaction. */
export async function createBoard(
  db: Db,
  userId: string,
  draft: BoardDraft,
  now: number,
): Promise<BoardRow> {
  await lockContent(db);
  const row: BoardRow = {
    id: randomUUID(),
    user_id: userId,
    name: draft.board_name,
    description: draft.description,
    kind: draft.kind,
    definition: JSON.stringify(draft.definition),
    enabled: 1,
    version: 1,
    created_at: iso(now),
    updated_at: iso(now),
  };
  await db.insertInto('boards').values(row).execute();
  await announce(db, row, await rebuildBoardEntries(db, row, now), now);
  return row;
}

/**
 * Edits a board. A changed definition bumps the version and rebuilds the entries (mirrors
 * start over); a new name or description keeps them.
 */
export async function editBoard(
  db: Db,
  current: BoardRow,
  draft: BoardDraft,
  now: number,
): Promise<BoardRow> {
  await lockContent(db);
  const definition = JSON.stringify(draft.definition);
  const rebuild = definition !== current.definition;
  const row: BoardRow = {
    ...current,
    name: draft.board_name,
    description: draft.description,
    kind: draft.kind,
    definition,
    version: Number(current.version) + (rebuild ? 1 : 0),
    updated_at: iso(now),
  };
  await db
    .updateTable('boards')
    .set({
      name: row.name,
      description: row.description,
      kind: row.kind,
      definition: row.definition,
      version: row.version,
      updated_at: row.updated_at,
    })
    .where('id', '=', row.id)
    .execute();
  await announce(db, row, rebuild ? await rebuildBoardEntries(db, row, now) : 0, now);
  return row;
}

/** Enables or disables (hides) a board; its entries stay current either way. */
export async function enableBoard(db: Db, current: BoardRow, enabled: boolean, now: number) {
  const row: BoardRow = { ...current, enabled: enabled ? 1 : 0, updated_at: iso(now) };
  if (row.enabled !== current.enabled) {
    await db
      .updateTable('boards')
      .set({ enabled: row.enabled, updated_at: row.updated_at })
      .where('id', '=', row.id)
      .execute();
    await announce(db, row, 0, now);
  }
  return row;
}

/**
 * Deletes a board and its feed entries, and tells the owner's other devices (a 'board' delete
 * change). Call inside the request's transaction, with a row `ownBoard` found.
 */
export async function deleteBoard(db: Db, current: BoardRow, now: number): Promise<void> {
  await lockContent(db);
  await db.deleteFrom('feed_entries').where('feed_id', '=', current.id).execute();
  await db
    .deleteFrom('boards')
    .where('id', '=', current.id)
    .where('user_id', '=', current.user_id)
    .execute();
  await recordChange(
    db,
    current.user_id,
    { entity: 'board', entity_id: current.id, op: 'delete', data: null },
    now,
  );
}
