import type { Db } from '../db/schema';
import { iso } from '../time';
import { purgeAuthAttempts } from './throttle';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Tokens expired for over a day (until then an expired id token still earns a 403 "refresh
 * it"), spent or expired reset links, and throttle rows past their window.
 */
export const purgeAuth = async (db: Db, now: number) => {
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
