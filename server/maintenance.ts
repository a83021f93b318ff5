import { DEFAULT_CHANGE_RETENTION, type ChangeRetention } from './context';
import type { Db } from './db/schema';
import type { ServerDomain } from './domain';
import { serverDomains } from './domains';
import { purgeIdempotencyRecords } from './idempotency';

/**
 * The periodic maintenance (hourly, and once at start): replay records past their window, then
 * each domain's own job (expired tokens and throttle rows in auth, the change log's compaction
 * in sync).
 */
export const runMaintenance = async (
  db: Db,
  opts: { now: number; changeRetention?: ChangeRetention },
  domains: readonly ServerDomain[] = serverDomains,
) => {
  const ctx = { now: opts.now, changeRetention: opts.changeRetention ?? DEFAULT_CHANGE_RETENTION };
  await purgeIdempotencyRecords(db, ctx.now);
  for (const domain of domains) await domain.maintain?.(db, ctx);
};
