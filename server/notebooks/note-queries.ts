import { randomUUID } from 'node:crypto';
import {
  MAX_NOTES_PER_NOTEBOOK,
  noteText,
  sanitizeNoteDocument,
  textToNoteDocument,
  type Note,
} from '../../contract/notebooks';
import type { Db } from '../db/schema';
import { htmlToText, lockContent, sanitizeHtml } from '../documents';
import { ApiError, badRequest } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';
import { notebookRow, noteCounts, NOTE_COLUMNS, notFound, recordNotebook, toNote } from './queries';
import { indexNote, unindexNotes } from './search-index';

/**
 * The notes' reads and writes (queries.ts: the notebooks'), every one scoped to the user: a
 * note of another user answers 404. A write to a note records the note and its notebook (its
 * count and updated_at moved) in the request's transaction.
 */

/** The document a create or a snip stores: links checked; a selection's HTML sanitised. */
export const incomingDocument = (input: {
  document?: Note['document'];
  html?: string;
}): Note['document'] => {
  if (input.document) return sanitizeNoteDocument(input.document);
  if (input.html) return textToNoteDocument(htmlToText(sanitizeHtml(input.html)));
  return [];
};

const noteRow = (db: Db, userId: string, id: string) =>
  db
    .selectFrom('notes')
    .select(NOTE_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();

/** One note of the user (404 when there is none). */
export async function noteOf(db: Db, userId: string, id: string): Promise<Note> {
  const row = await noteRow(db, userId, id);
  if (!row) throw notFound(`no such note: ${id}`);
  return toNote(row);
}

/**
 * Creates a note in the user's notebook (404 when the user has no such notebook). A note of
 * that id already there is answered as it stands (a retried create). Call inside the request's
 * transaction.
 */
export async function createNote(
  db: Db,
  userId: string,
  notebookId: string,
  input: { id?: string; name: string; document: Note['document'] },
  product: string,
  now: number,
): Promise<Note> {
  await lockContent(db);
  await lockUserRow(db, userId);
  if (!(await notebookRow(db, userId, notebookId))) {
    throw notFound(`no such notebook: ${notebookId}`);
  }
  if (input.id !== undefined) {
    const same = await noteRow(db, userId, input.id);
    if (same) {
      if (same.notebook_id !== notebookId) {
        throw new ApiError(409, 'conflict', `note id ${input.id} is already used by another note`);
      }
      return toNote(same);
    }
  }
  const count = (await noteCounts(db, userId, [notebookId])).get(notebookId) ?? 0;
  if (count >= MAX_NOTES_PER_NOTEBOOK) {
    throw badRequest(`a notebook holds at most ${MAX_NOTES_PER_NOTEBOOK} notes`);
  }
  const note: Note = {
    id: input.id ?? randomUUID(),
    notebook_id: notebookId,
    name: input.name || 'Untitled note',
    document: input.document,
    created_at: iso(now),
    updated_at: iso(now),
  };
  await db
    .insertInto('notes')
    .values({
      user_id: userId,
      ...note,
      document: JSON.stringify(note.document),
      plain_text: noteText(note.document),
    })
    .execute();
  await indexNote(db, product, userId, note, now);
  await touchNotebook(db, userId, notebookId, now);
  await recordChange(
    db,
    userId,
    { entity: 'note', entity_id: note.id, op: 'upsert', data: note },
    now,
  );
  await recordNotebook(db, userId, notebookId, now);
  return note;
}

const touchNotebook = (db: Db, userId: string, id: string, now: number) =>
  db
    .updateTable('notebooks')
    .set({ updated_at: iso(now) })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();

/** Replaces a note's document (and name); 404 when the user has no such note. */
export async function snipNote(
  db: Db,
  userId: string,
  id: string,
  input: { document: Note['document']; name?: string },
  product: string,
  now: number,
): Promise<Note> {
  await lockContent(db);
  await lockUserRow(db, userId);
  const row = await noteRow(db, userId, id);
  if (!row) throw notFound(`no such note: ${id}`);
  const name = input.name === undefined ? row.name : input.name || 'Untitled note';
  const document = JSON.stringify(input.document);
  if (document === row.document && name === row.name) return toNote(row);
  await db
    .updateTable('notes')
    .set({ name, document, plain_text: noteText(input.document), updated_at: iso(now) })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
  const note = await noteOf(db, userId, id);
  await indexNote(db, product, userId, note, now);
  await touchNotebook(db, userId, note.notebook_id, now);
  await recordChange(db, userId, { entity: 'note', entity_id: id, op: 'upsert', data: note }, now);
  await recordNotebook(db, userId, note.notebook_id, now);
  return note;
}

/** Deletes the user's note; 404 when there is none. */
export async function deleteNote(db: Db, userId: string, id: string, product: string, now: number) {
  await lockContent(db);
  await lockUserRow(db, userId);
  const row = await noteRow(db, userId, id);
  if (!row) throw notFound(`no such note: ${id}`);
  await unindexNotes(db, product, userId, [id], now);
  await db.deleteFrom('notes').where('user_id', '=', userId).where('id', '=', id).execute();
  await touchNotebook(db, userId, row.notebook_id, now);
  await recordChange(db, userId, { entity: 'note', entity_id: id, op: 'delete', data: null }, now);
  await recordNotebook(db, userId, row.notebook_id, now);
  return 1;
}

/** A page of the user's notes by id (the mirror's pull). */
export async function noteList(db: Db, userId: string, after: string | undefined, limit: number) {
  let query = db
    .selectFrom('notes')
    .select(NOTE_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id')
    .limit(limit + 1);
  if (after !== undefined) query = query.where('id', '>', after);
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  return {
    notes: page.map(toNote),
    cursor: page.at(-1)?.id ?? null,
    has_more: rows.length > limit,
  };
}
