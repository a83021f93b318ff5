import type { Db } from './db/schema';
import { purgeIdempotencyRecords } from './idempotency';
import { purgeAuthAttempts } from './throttle';
import { iso } from './time';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes what nobody can use any more: replay records past their window, tokens expired for
 * over a day (until then an expired id token still earns a 403 "refresh it"), spent or
 * expired reset links, sign-in failures and reset mails past their throttle window.
 */
export const purgeExpired = async (db: Db, now: number) => {
  await purgeIdempotencyRecords(db, now);
  await purgeAuthAttempts(db, now);
  const dayAgo = iso(now - DAY_MS);
  for (const table of ['id_tokens', 'refresh_tokens'] as const) {
    await db.deleteFrom(table).where('expires_at', '<', dayAgo).execute();
  }
  await db
    .deleteFrom('password_resets')
    .where((eb) => eb.or([eb('expires_at', '<', dayAgo), eb('used_at', '<', dayAgo)]))
    .execute();
};
