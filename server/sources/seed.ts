import { DEMO_ACCOUNT, DEMO_ANALYST, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { ensureCatalogue } from '../catalogue';
import { followSource } from './follow';

/**
 * What the demo user follows: the built-in desks, filings and research, all stored here. No
 * live preset (SEC, BSE): without the internet each would show a red error from the first
 * minute; the user follows them from /connect when they want them.
 */
export const DEMO_FOLLOWS = [
  'demo_markets_wire',
  'demo_macro_monitor',
  'demo_tech_ledger',
  'demo_india_filings',
  'demo_us_filings',
  'demo_research',
] as const;

/** The analyst reads a narrower set, so the two accounts' feeds differ. */
export const ANALYST_FOLLOWS = ['demo_markets_wire', 'demo_us_filings'] as const;

/**
 * The demo accounts' follows. Runs before the documents seed, whose documents then fan out to
 * these followers' home feeds.
 */
export const seedSources = async (db: Db, { now, product }: SeedContext) => {
  // `prepare` wrote the catalogue already on a started server; a seed run alone needs it too.
  await ensureCatalogue(db, product, now);
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  const analyst = await findUserByEmail(db, DEMO_ANALYST.email);
  // A database whose demo accounts are gone (or never made) gets no follows.
  if (demo) for (const key of DEMO_FOLLOWS) await followSource(db, demo.id, key, now);
  if (analyst) for (const key of ANALYST_FOLLOWS) await followSource(db, analyst.id, key, now);
};
