import { randomUUID } from 'node:crypto';
import {
  SessionMetadata,
  sessionTitle,
  type AskAnswer,
  type AskMode,
  type SessionMessage,
  type SessionSummary,
  type SessionType,
} from '../../contract/assistant';
import type { Database, Db } from '../db/schema';
import { inTransaction, isUniqueViolation } from '../db/tx';
import { ApiError } from '../errors';
import { recordChange } from '../sync';
import { iso } from '../time';
import './tables';

/**
 * Sessions and their messages, always read and written for one user: a session of someone
 * else answers 404 as if it did not exist. Each write of a session (created, asked, answered,
 * renamed, deleted) appends an 'assistant_session' change in the same transaction, so every
 * tab and device hears of it.
 *
 * A question is stored, committed, before its answer streams (`startAnswer`: status
 * 'answering'); the stream says it is alive every ANSWER_BEAT_MS, keeping what it has written
 * so far (`beatAnswer`), and its end writes the answer over it (`finishAnswer`). An exchange
 * still answering is left out of a session as read; one not heard from for ANSWER_LEASE_MS
 * was left by a server that died mid-answer (kill -9, power loss), and reads as stopped with
 * what had been written: the question is never lost.
 */

export type SessionRow = Database['assistant_sessions'];
export type MessageRow = Database['assistant_messages'];

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

/** How often a streaming answer says it is alive (real time). */
export const ANSWER_BEAT_MS = 5_000;
/** An answer not heard from for this long (by `now`) was left by a dead server: stopped. */
export const ANSWER_LEASE_MS = 20_000;
const ANSWERING = 'answering';

export const toMessage = (row: MessageRow): SessionMessage => ({
  id: row.id,
  prompt: row.prompt,
  mode: row.mode as AskMode,
  answer: row.answer,
  data: row.data ? (JSON.parse(row.data) as AskAnswer) : null,
  // Only an abandoned one is read (`sessionMessages`): its server died answering.
  status: (row.status === ANSWERING ? 'stopped' : row.status) as SessionMessage['status'],
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
    title: sessionTitle(input.prompt),
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

/**
 * A session's exchanges in order, as the user sees them: those still answering on a live
 * server are left out (their stream will deliver them), abandoned ones read as stopped.
 */
export async function sessionMessages(
  db: Db,
  sessionId: string,
  now: number,
): Promise<SessionMessage[]> {
  const rows = await db
    .selectFrom('assistant_messages')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where((eb) =>
      eb.or([
        eb('status', '!=', ANSWERING),
        eb('alive_at', 'is', null),
        eb('alive_at', '<', iso(now - ANSWER_LEASE_MS)),
      ]),
    )
    .orderBy('seq', 'asc')
    .execute();
  return rows.map(toMessage);
}

/** The next place in a session, inside a transaction that has locked the session's row. */
async function nextSeq(trx: Db, sessionId: string): Promise<number> {
  const last = await trx
    .selectFrom('assistant_messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(last?.seq ?? 0) + 1;
}

/**
 * Stores a question before its answer streams, in one committed transaction with its session
 * (the user's own by that id, or a new one under that id, titled from the question; an id
 * another user holds is 404). The message waits as 'answering' for `finishAnswer`.
 */
export async function startAnswer(
  db: Db,
  userId: string,
  input: { id?: string; prompt: string; type: SessionType; metadata: SessionMetadata },
  message: { id: string; prompt: string; mode: AskMode },
  now: number,
): Promise<SessionRow> {
  const id = input.id ?? randomUUID();
  const attempt = () =>
    inTransaction(db, async (trx) => {
      // Updated first: on PostgreSQL that locks it, so two questions take consecutive places.
      let row = await trx
        .updateTable('assistant_sessions')
        .set({ updated_at: iso(now) })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      if (!row) {
        const taken = await trx
          .selectFrom('assistant_sessions')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst();
        if (taken) throw notFound(id);
        row = {
          id,
          user_id: userId,
          title: sessionTitle(input.prompt),
          type: input.type,
          metadata: JSON.stringify(input.metadata),
          settings: '{}',
          created_at: iso(now),
          updated_at: iso(now),
        };
        await trx.insertInto('assistant_sessions').values(row).execute();
      }
      await trx
        .insertInto('assistant_messages')
        .values({
          ...message,
          answer: '',
          data: null,
          status: ANSWERING,
          error: null,
          alive_at: iso(now),
          session_id: id,
          user_id: userId,
          seq: await nextSeq(trx, id),
          feedback: null,
          feedback_message: null,
          created_at: iso(now),
        })
        .execute();
      await recordChange(trx, userId, sessionChange(row), now);
      return row;
    });
  try {
    return await attempt();
  } catch (err) {
    // Two first questions of one new session at once: the other one created it; join it.
    if (!isUniqueViolation(err)) throw err;
    return attempt();
  }
}

/** The streaming answer is alive, and has written `answer` so far. */
export async function beatAnswer(
  db: Db,
  messageId: string,
  answer: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('assistant_messages')
    .set({ alive_at: iso(now), answer })
    .where('id', '=', messageId)
    .where('status', '=', ANSWERING)
    .execute();
}

/**
 * Makes a session the most recently active (first in a transaction: on PostgreSQL that locks
 * its row); undefined when it was deleted meanwhile.
 */
const touchSession = (trx: Db, id: string, now: number) =>
  trx
    .updateTable('assistant_sessions')
    .set({ updated_at: iso(now) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

/**
 * Writes the answer over its waiting message (done, stopped or error) and makes the session
 * the most recently active. Deleted meanwhile: the answer has nowhere to go.
 */
export async function finishAnswer(
  db: Db,
  session: SessionRow,
  message: Omit<FinishedMessage, 'prompt' | 'mode'>,
  now: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const touched = await touchSession(trx, session.id, now);
    if (!touched) return;
    await trx
      .updateTable('assistant_messages')
      .set({
        answer: message.answer,
        data: message.data ? JSON.stringify(message.data) : null,
        status: message.status,
        error: message.error,
        alive_at: null,
      })
      .where('id', '=', message.id)
      .where('session_id', '=', session.id)
      .execute();
    await recordChange(trx, session.user_id, sessionChange(touched), now);
  });
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
 * Stores a finished exchange as the session's next message (the demo seed's) and makes the
 * session the most recently active. The session row is updated first: on PostgreSQL that locks it, so two answers
 * finishing at once take consecutive places.
 */
export async function saveMessage(
  db: Db,
  session: SessionRow,
  message: FinishedMessage,
  now: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const touched = await touchSession(trx, session.id, now);
    // Deleted while it was answering: the answer has nowhere to go.
    if (!touched) return;
    await trx
      .insertInto('assistant_messages')
      .values({
        ...message,
        data: message.data ? JSON.stringify(message.data) : null,
        session_id: session.id,
        user_id: session.user_id,
        seq: await nextSeq(trx, session.id),
        feedback: null,
        feedback_message: null,
        created_at: iso(now),
      })
      .execute();
    await recordChange(trx, session.user_id, sessionChange(touched), now);
  });
}
