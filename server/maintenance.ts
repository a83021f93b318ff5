import { DEFAULT_CHANGE_RETENTION, type AppDeps } from './context';
import type { ServerDomain } from './domain';
import { serverDomains } from './domains';
import { purgeIdempotencyRecords } from './idempotency';

/**
 * The periodic maintenance (hourly, and once at start): replay records past their window, then
 * each domain's own job (expired tokens and throttle rows in auth, the change log's compaction
 * in sync).
 */
export const runMaintenance = async (
  deps: Pick<AppDeps, 'db' | 'now' | 'changeRetention'>,
  domains: readonly ServerDomain[] = serverDomains,
) => {
  const ctx = {
    now: deps.now(),
    changeRetention: deps.changeRetention ?? DEFAULT_CHANGE_RETENTION,
  };
  await purgeIdempotencyRecords(deps.db, ctx.now);
  for (const domain of domains) await domain.maintain?.(deps.db, ctx);
};
