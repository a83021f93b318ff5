import type { ChangeRetention } from '../context';
import type { Db } from '../db/schema';
import { inTransaction } from '../db/tx';
import { iso } from '../time';

/**
 * Keeps the change log bounded: per user, at most `maxPerUser` changes and none older than
 * `maxAgeMs`. What goes is everything up to a floor; the floor is written on the user row in
 * the same transaction, so /sync/changes knows exactly which cursors it can still continue
 * (sync/changes.ts). Runs with the hourly maintenance.
 */
export const compactChangeLog = async (db: Db, now: number, retention: ChangeRetention) => {
  const cutoff = iso(now - retention.maxAgeMs);
  const users = await db
    .selectFrom('changes')
    .select('user_id')
    .groupBy('user_id')
    .having((eb) =>
      eb.or([
        eb(eb.fn.countAll(), '>', retention.maxPerUser),
        eb(eb.fn.min('created_at'), '<', cutoff),
      ]),
    )
    .execute();
  for (const { user_id: userId } of users) {
    await compactUser(db, userId, cutoff, retention.maxPerUser);
  }
};

const compactUser = (db: Db, userId: string, cutoff: string, maxPerUser: number) =>
  inTransaction(db, async (trx) => {
    // The newest change that falls outside the count, and the newest one past the age limit.
    const pastCount = await trx
      .selectFrom('changes')
      .select('seq')
      .where('user_id', '=', userId)
      .orderBy('seq', 'desc')
      .limit(1)
      .offset(maxPerUser)
      .executeTakeFirst();
    const pastAge = await trx
      .selectFrom('changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('user_id', '=', userId)
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    const floor = Math.max(pastCount?.seq ?? 0, Number(pastAge?.seq ?? 0));
    if (floor === 0) return;
    await trx
      .deleteFrom('changes')
      .where('user_id', '=', userId)
      .where('seq', '<=', floor)
      .execute();
    await trx
      .updateTable('users')
      .set({ change_floor: floor })
      .where('id', '=', userId)
      .where('change_floor', '<', floor)
      .execute();
  });
