import { randomUUID } from 'node:crypto';
import {
  SessionMetadata,
  type AskAnswer,
  type AskMode,
  type SessionMessage,
  type SessionSummary,
  type SessionType,
} from '../../contract/assistant';
import type { Database, Db } from '../db/schema';
import { inTransaction, isUniqueViolation } from '../db/tx';
import { ApiError } from '../errors';
import { recordChange } from '../sync/changes';
import { iso } from '../time';
import './tables';

/**
 * Sessions and their messages, always read and written for one user: a session of someone
 * else answers 404 as if it did not exist. Each write of a session (created, answered,
 * renamed, deleted) appends an 'assistant_session' change in the same transaction, so every
 * tab and device hears of it.
 */

export type SessionRow = Database['assistant_sessions'];
export type MessageRow = Database['assistant_messages'];

const TITLE_CHARS = 60;

/** A new session's title: the first question, cut at a word near 60 characters, capitalised. */
export function titleFrom(prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  let title = flat;
  if (flat.length > TITLE_CHARS) {
    const cut = flat.slice(0, TITLE_CHARS + 1);
    const space = cut.lastIndexOf(' ');
    title = `${(space > TITLE_CHARS / 2 ? cut.slice(0, space) : flat.slice(0, TITLE_CHARS)).replace(/[\s,;:.\-–—]+$/, '')}…`;
  }
  return title.charAt(0).toUpperCase() + title.slice(1);
}

export const metadataOf = (row: SessionRow): SessionMetadata =>
  SessionMetadata.parse(JSON.parse(row.metadata));

export const toSummary = (row: SessionRow, matched: string | null = null): SessionSummary => ({
  id: row.id,
  sessionId: row.id,
  title: row.title,
  type: row.type as SessionType,
  updated_at: row.updated_at,
  created_at: row.created_at,
  metadata: metadataOf(row),
  matched_sentence: matched,
});

export const toMessage = (row: MessageRow): SessionMessage => ({
  id: row.id,
  prompt: row.prompt,
  mode: row.mode as AskMode,
  answer: row.answer,
  data: row.data ? (JSON.parse(row.data) as AskAnswer) : null,
  status: row.status as SessionMessage['status'],
  error: row.error,
  feedback: row.feedback as SessionMessage['feedback'],
  created_at: row.created_at,
});

const notFound = (id: string) => new ApiError(404, 'not_found', `no such session: ${id}`);

/** The user's session, or 404. */
export async function ownSession(db: Db, userId: string, id: string): Promise<SessionRow> {
  const row = await db
    .selectFrom('assistant_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound(id);
  return row;
}

export const sessionChange = (row: SessionRow) =>
  ({ entity: 'assistant_session', entity_id: row.id, op: 'upsert', data: toSummary(row) }) as const;

/**
 * The session a question goes to: the user's own by that id; a new one under that id (or a
 * new id) titled from the question. An id another user holds is 404.
 */
export async function openSession(
  db: Db,
  userId: string,
  input: { id?: string; prompt: string; type: SessionType; metadata: SessionMetadata },
  now: number,
): Promise<SessionRow> {
  const id = input.id ?? randomUUID();
  const existing = await db
    .selectFrom('assistant_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (existing) {
    if (existing.user_id !== userId) throw notFound(id);
    return existing;
  }
  const row: SessionRow = {
    id,
    user_id: userId,
    title: titleFrom(input.prompt),
    type: input.type,
    metadata: JSON.stringify(input.metadata),
    settings: '{}',
    created_at: iso(now),
    updated_at: iso(now),
  };
  try {
    await inTransaction(db, async (trx) => {
      await trx.insertInto('assistant_sessions').values(row).execute();
      await recordChange(trx, userId, sessionChange(row), now);
    });
    return row;
  } catch (err) {
    // Two first questions of one new session at once: the other one created it.
    if (!isUniqueViolation(err)) throw err;
    return ownSession(db, userId, id);
  }
}

/** The earlier exchanges of a session that were answered, oldest first (the last few). */
export async function sessionHistory(db: Db, sessionId: string, last = 6) {
  const rows = await db
    .selectFrom('assistant_messages')
    .select(['prompt', 'answer'])
    .where('session_id', '=', sessionId)
    .where('status', '=', 'done')
    .orderBy('seq', 'desc')
    .limit(last)
    .execute();
  return rows.reverse();
}

export type FinishedMessage = {
  id: string;
  prompt: string;
  mode: AskMode;
  answer: string;
  data: AskAnswer | null;
  status: SessionMessage['status'];
  error: string | null;
};

/**
 * Stores an answer as the session's next message and makes the session the most recently
 * active. The session row is updated first: on PostgreSQL that locks it, so two answers
 * finishing at once take consecutive places.
 */
export async function saveMessage(
  db: Db,
  session: SessionRow,
  message: FinishedMessage,
  now: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const touched = await trx
      .updateTable('assistant_sessions')
      .set({ updated_at: iso(now) })
      .where('id', '=', session.id)
      .returningAll()
      .executeTakeFirst();
    // Deleted while it was answering: the answer has nowhere to go.
    if (!touched) return;
    const last = await trx
      .selectFrom('assistant_messages')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('session_id', '=', session.id)
      .executeTakeFirst();
    await trx
      .insertInto('assistant_messages')
      .values({
        ...message,
        data: message.data ? JSON.stringify(message.data) : null,
        session_id: session.id,
        user_id: session.user_id,
        seq: Number(last?.seq ?? 0) + 1,
        feedback: null,
        feedback_message: null,
        created_at: iso(now),
      })
      .execute();
    await recordChange(trx, session.user_id, sessionChange(touched), now);
  });
}
