import type { ChangeEntity } from '../../contract/domains';
import type { ChangesPage } from '../../contract/sync';
import type { Db } from '../db/schema';
import { iso } from '../time';
import { signalChange } from './live-signal';

/** One entry of the change log; `data` is the entity's change schema (contract/domains.ts). */
export type ChangeInput = {
  entity: ChangeEntity;
  entity_id: string;
  op: 'upsert' | 'delete';
  data: unknown;
};

/**
 * Hands out the user's next change sequence number. The counter lives on the user row and is
 * bumped with an UPDATE, which on PostgreSQL locks that row until commit: two writers for one
 * user take turns, so sequence numbers become visible in order and a reader's cursor never
 * skips one. A read-modify-write of the user's data (preferences) takes this first, so that
 * the read already holds the lock. Call inside the transaction that makes the change.
 */
export const reserveChangeSeq = async (db: Db, userId: string): Promise<number> => {
  const { change_seq: seq } = await db
    .updateTable('users')
    .set((eb) => ({ change_seq: eb('change_seq', '+', 1) }))
    .where('id', '=', userId)
    .returning('change_seq')
    .executeTakeFirstOrThrow();
  return seq;
};

/**
 * Takes the user row's lock (on PostgreSQL, until the transaction ends) without handing out a
 * number: for a read-modify-write of the user's data that may turn out to change nothing.
 */
export const lockUserRow = async (db: Db, userId: string): Promise<void> => {
  await db
    .updateTable('users')
    .set((eb) => ({ change_seq: eb.ref('change_seq') }))
    .where('id', '=', userId)
    .execute();
};

/** Writes a change under a number from `reserveChangeSeq`, in the same transaction. */
export const writeChange = async (
  db: Db,
  userId: string,
  seq: number,
  change: ChangeInput,
  now: number,
): Promise<number> => {
  await db
    .insertInto('changes')
    .values({
      user_id: userId,
      seq,
      entity: change.entity,
      entity_id: change.entity_id,
      op: change.op,
      data: JSON.stringify(change.data ?? null),
      created_at: iso(now),
    })
    .execute();
  // A hint for the live connections of this process; they read the committed sequence.
  signalChange(userId, seq);
  return seq;
};

/**
 * Appends to the user's change sequence (reserveChangeSeq, then writeChange). Call inside the
 * transaction that makes the change.
 */
export const recordChange = async (
  db: Db,
  userId: string,
  change: ChangeInput,
  now: number,
): Promise<number> => writeChange(db, userId, await reserveChangeSeq(db, userId), change, now);

/**
 * The caller's changes after `after`, oldest first; or a reset when the log no longer holds
 * everything after `after` (compacted below it), or `after` is beyond anything handed out
 * (a cursor from another database): then `changes` is empty and `cursor` the newest number.
 */
export const changesAfter = async (
  db: Db,
  userId: string,
  after: number,
  limit: number,
): Promise<ChangesPage> => {
  const rows = await db
    .selectFrom('changes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('seq', '>', after)
    .orderBy('seq', 'asc')
    .limit(limit + 1)
    .execute();
  // Read after the rows: compaction deletes and raises the floor in one transaction, so this
  // floor is at least the one the rows above were cut at (a compaction in between can only
  // cause a reset that was not needed, never a gap).
  const user = await db
    .selectFrom('users')
    .select(['change_seq', 'change_floor'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (after < user.change_floor || after > user.change_seq) {
    return { changes: [], cursor: user.change_seq, has_more: false, reset: true };
  }
  const page = rows.slice(0, limit);
  return {
    changes: page.map((r) => ({
      seq: r.seq,
      entity: r.entity,
      entity_id: r.entity_id,
      op: r.op,
      data: JSON.parse(r.data) as unknown,
      created_at: r.created_at,
    })),
    cursor: page.length ? page[page.length - 1].seq : after,
    has_more: rows.length > limit,
    reset: false,
  };
};
