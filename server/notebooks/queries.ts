import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  BOT_PLACEHOLDER,
  MAX_NOTEBOOKS,
  NoteDocument,
  notebookKey,
  sanitizeNoteDocument,
  textToNoteDocument,
  type Note,
  type Notebook,
} from '../../contract/notebooks';
import type { Db } from '../db/schema';
import { lockContent } from '../documents';
import { ApiError, badRequest } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';
import { eligibility, type UploadSettings } from '../uploads';
import { unindexNotes } from './search-index';

/**
 * The notebooks' reads and writes (note-queries.ts: the notes'), every one scoped to the user:
 * another user's notebook or note answers 404, as if it did not exist. Each write records its
 * changes ('notebook', 'note') in the request's transaction; a write to a note also records its
 * notebook (its count and updated_at moved). The helpers exported here are the notes' too.
 */

export const notFound = (what: string) => new ApiError(404, 'not_found', what);

type NotebookRow = {
  id: string;
  name: string;
  type: 'default' | 'user';
  created_at: string;
  updated_at: string;
};
type NoteRow = {
  id: string;
  notebook_id: string;
  name: string;
  document: string;
  created_at: string;
  updated_at: string;
};

const toNotebook = (row: NotebookRow, notes: number): Notebook => ({
  notebook_id: row.id,
  notebook_name: row.name,
  notebook_type: row.type,
  notes,
  notebook_created_at: row.created_at,
  notebook_updated_at: row.updated_at,
  default: row.type === 'default',
});

/**
 * A stored note as answered: its document parsed and its links checked again on the way out
 * (a row written before a rule tightened still answers safely); a row that no longer parses
 * answers as its plain text.
 */
export const toNote = (row: NoteRow & { plain_text?: string }): Note => {
  let document: Note['document'];
  try {
    const parsed = NoteDocument.safeParse(JSON.parse(row.document));
    document = parsed.success ? parsed.data : textToNoteDocument(row.plain_text ?? '');
  } catch {
    document = textToNoteDocument(row.plain_text ?? '');
  }
  return {
    id: row.id,
    notebook_id: row.notebook_id,
    name: row.name,
    document: sanitizeNoteDocument(document),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
};

const NOTEBOOK_COLUMNS = ['id', 'name', 'type', 'created_at', 'updated_at'] as const;
export const NOTE_COLUMNS = [
  'id',
  'notebook_id',
  'name',
  'document',
  'plain_text',
  'created_at',
  'updated_at',
] as const;

/** How many notebooks of its own the user holds (the add_notebook gate counts them). */
export const userNotebookCount = async (db: Db, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('notebooks')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const noteCounts = async (db: Db, userId: string, ids?: string[]) => {
  let query = db
    .selectFrom('notes')
    .select(['notebook_id', sql<number>`cast(count(*) as integer)`.as('n')])
    .where('user_id', '=', userId)
    .groupBy('notebook_id');
  if (ids) query = query.where('notebook_id', 'in', ids);
  const rows = ids?.length === 0 ? [] : await query.execute();
  return new Map(rows.map((r) => [r.notebook_id, Number(r.n)]));
};

/** Every notebook of the user: the default one first, then oldest first (by id on a tie). */
export async function listNotebooks(db: Db, userId: string): Promise<Notebook[]> {
  const rows = await db
    .selectFrom('notebooks')
    .select(NOTEBOOK_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy(sql`case when type = 'default' then 0 else 1 end`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const counts = await noteCounts(db, userId);
  return rows.map((row) => toNotebook(row, counts.get(row.id) ?? 0));
}

export const notebookRow = (db: Db, userId: string, id: string) =>
  db
    .selectFrom('notebooks')
    .select(NOTEBOOK_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();

/** One notebook as it stands (404 when the user has no such notebook). */
export async function notebookOf(db: Db, userId: string, id: string): Promise<Notebook> {
  const row = await notebookRow(db, userId, id);
  if (!row) throw notFound(`no such notebook: ${id}`);
  return toNotebook(row, (await noteCounts(db, userId, [id])).get(id) ?? 0);
}

/** Records the notebook as it now stands (its count, name, updated_at) for every device. */
export async function recordNotebook(db: Db, userId: string, id: string, now: number) {
  const notebook = await notebookOf(db, userId, id);
  await recordChange(
    db,
    userId,
    { entity: 'notebook', entity_id: id, op: 'upsert', data: notebook },
    now,
  );
  return notebook;
}

/**
 * Creates a notebook (trimmed by the contract). A notebook of that id already there is
 * answered as it stands (a retried create); one of that name (case-insensitively) too. With
 * `bot`, the user's default notebook is answered, made the first time (named `name`, else the
 * spec's placeholder). Call inside the request's transaction.
 */
export async function createNotebook(
  db: Db,
  userId: string,
  input: { name?: string; id?: string; bot: boolean },
  settings: UploadSettings,
  now: number,
): Promise<{ notebook: Notebook; created: boolean }> {
  await lockUserRow(db, userId);
  if (input.bot) {
    const held = await db
      .selectFrom('notebooks')
      .select('id')
      .where('user_id', '=', userId)
      .where('type', '=', 'default')
      .executeTakeFirst();
    if (held) return { notebook: await notebookOf(db, userId, held.id), created: false };
  } else if (input.name === undefined) {
    throw badRequest('name: name must not be empty');
  }
  const name = input.name ?? BOT_PLACEHOLDER;
  if (input.id !== undefined) {
    const same = await notebookRow(db, userId, input.id);
    if (same) {
      if (notebookKey(same.name) !== notebookKey(name)) {
        throw new ApiError(
          409,
          'conflict',
          `notebook id ${input.id} is already used by another notebook`,
        );
      }
      return { notebook: await notebookOf(db, userId, same.id), created: false };
    }
  }
  const existing = await db
    .selectFrom('notebooks')
    .select('id')
    .where('user_id', '=', userId)
    .where('name_key', '=', notebookKey(name))
    .executeTakeFirst();
  if (existing) return { notebook: await notebookOf(db, userId, existing.id), created: false };
  // The add_notebook gate (000 §6): the plan's notebooks, then no more.
  const gate = (await eligibility(db, userId, settings)).add_notebook;
  if (!gate.isEligible) {
    const message = gate.message
      ? `${gate.message.header}. ${gate.message.body}`
      : 'Notebook limit reached.';
    throw new ApiError(400, 'bad_request', message);
  }
  if ((await userNotebookCount(db, userId)) >= MAX_NOTEBOOKS) {
    throw badRequest(`a user holds at most ${MAX_NOTEBOOKS} notebooks`);
  }
  const id = input.id ?? randomUUID();
  await db
    .insertInto('notebooks')
    .values({
      user_id: userId,
      id,
      name,
      name_key: notebookKey(name),
      type: input.bot ? 'default' : 'user',
      created_at: iso(now),
      updated_at: iso(now),
    })
    .execute();
  return { notebook: await recordNotebook(db, userId, id, now), created: true };
}

/** Renames the user's notebook; 404 when there is none, 409 when the name is another's. */
export async function renameNotebook(
  db: Db,
  userId: string,
  id: string,
  name: string,
  now: number,
): Promise<Notebook> {
  await lockUserRow(db, userId);
  const row = await notebookRow(db, userId, id);
  if (!row) throw notFound(`no such notebook: ${id}`);
  const other = await db
    .selectFrom('notebooks')
    .select('id')
    .where('user_id', '=', userId)
    .where('name_key', '=', notebookKey(name))
    .where('id', '<>', id)
    .executeTakeFirst();
  if (other) throw new ApiError(409, 'conflict', `a notebook named "${name}" already exists`);
  if (row.name === name) return notebookOf(db, userId, id);
  await db
    .updateTable('notebooks')
    .set({ name, name_key: notebookKey(name), updated_at: iso(now) })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
  return recordNotebook(db, userId, id, now);
}

/**
 * Deletes the user's notebook with its notes (one 'notebook' delete change: the mirror drops
 * its notes with it); 404 when there is none. Answers how many notes went.
 */
export async function deleteNotebook(
  db: Db,
  userId: string,
  id: string,
  product: string,
  now: number,
) {
  await lockContent(db);
  await lockUserRow(db, userId);
  const row = await notebookRow(db, userId, id);
  if (!row) throw notFound(`no such notebook: ${id}`);
  const held = await db
    .selectFrom('notes')
    .select('id')
    .where('user_id', '=', userId)
    .where('notebook_id', '=', id)
    .execute();
  await unindexNotes(
    db,
    product,
    userId,
    held.map((n) => n.id),
    now,
  );
  const notes = await db
    .deleteFrom('notes')
    .where('user_id', '=', userId)
    .where('notebook_id', '=', id)
    .executeTakeFirst();
  await db.deleteFrom('notebooks').where('user_id', '=', userId).where('id', '=', id).execute();
  await recordChange(
    db,
    userId,
    { entity: 'notebook', entity_id: id, op: 'delete', data: null },
    now,
  );
  return Number(notes.numDeletedRows);
}

/** A notebook with its newest notes (404 when the user has no such notebook). */
export async function notebookWithNotes(db: Db, userId: string, id: string, limit: number) {
  const notebook = await notebookOf(db, userId, id);
  const rows = await db
    .selectFrom('notes')
    .select(NOTE_COLUMNS)
    .where('user_id', '=', userId)
    .where('notebook_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return {
    notebook,
    notes: rows.slice(0, limit).map(toNote),
    has_more: rows.length > limit,
  };
}
