import type { Db } from '../db/schema';

/**
 * Hands out `n` numbers of the global content sequence (documents and feed entries)
 * and answers the first. The counter row is bumped with an UPDATE, which on PostgreSQL locks it
 * until the transaction ends: writers take turns, so numbers become visible in commit order and
 * a reader following `after_seq` never skips one. `n` = 0 only takes the lock.
 *
 * Lock order, to keep PostgreSQL free of deadlocks: this counter first, then user rows
 * (recordChange), then ingest jobs. Call inside the writing transaction.
 */
export const reserveSeqs = async (db: Db, n: number): Promise<number> => {
  const { value } = await db
    .updateTable('content_counters')
    .set((eb) => ({ value: eb('value', '+', n) }))
    .where('name', '=', 'content')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(value) - n + 1;
};

/** Takes the content counter's lock without handing out a number (see reserveSeqs). */
export const lockContent = async (db: Db): Promise<void> => {
  await reserveSeqs(db, 0);
};
