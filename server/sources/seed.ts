import { findUserByEmail } from '../auth/resolve';
import { DEMO_ACCOUNT, DEMO_ANALYST } from '../auth/seed';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { followSource } from './follow';

/** What the demo user follows: built-in desks, filings and research, and two real presets. */
export const DEMO_FOLLOWS = [
  'demo_markets_wire',
  'demo_macro_monitor',
  'demo_tech_ledger',
  'demo_india_filings',
  'demo_us_filings',
  'demo_research',
  'sec',
  'bse_filings',
] as const;

/** The analyst reads a narrower set, so the two accounts' feeds differ. */
export const ANALYST_FOLLOWS = ['demo_markets_wire', 'demo_us_filings'] as const;

/**
 * The demo accounts' follows (the catalogue rows exist: `prepare` wrote them). Runs before the
 * documents seed, whose documents then fan out to these followers' home feeds.
 */
export const seedSources = async (db: Db, { now }: SeedContext) => {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  const analyst = await findUserByEmail(db, DEMO_ANALYST.email);
  if (!demo || !analyst) throw new Error('sources seed: the auth seed made no demo accounts');
  for (const key of DEMO_FOLLOWS) await followSource(db, demo.id, key, now);
  for (const key of ANALYST_FOLLOWS) await followSource(db, analyst.id, key, now);
};
