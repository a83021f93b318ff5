import type { Db } from './db/schema';
import { inTransaction } from './db/tx';
import type { SeedContext, ServerDomain } from './domain';
import { iso } from './time';

/** The one marker of databases seeded before seeds lived in domain folders (issue 2). */
const LEGACY_MARKER = 'seeded_demo_workspace';
/** What that seed made, in today's domains. */
const LEGACY_SEEDED: readonly string[] = ['auth', 'notifications'];

const markerOf = (domain: string) => `seeded:${domain}`;

/**
 * Seeds the demo workspace, each domain's part once per database (a `seeded:<domain>` marker
 * in `meta` remembers), in list order. Each part runs in a transaction that first claims its
 * marker with an insert that does nothing if the marker exists: of servers starting together
 * (start.ts also holds the database's start-up lock), exactly one seeds, and a part that fails
 * leaves no marker, so the next start tries it again. True when anything was seeded.
 */
export const seedDemoWorkspace = async (
  db: Db,
  domains: readonly ServerDomain[],
  ctx: SeedContext,
): Promise<boolean> => {
  const legacy = await db
    .selectFrom('meta')
    .select('key')
    .where('key', '=', LEGACY_MARKER)
    .executeTakeFirst();
  if (legacy) {
    await inTransaction(db, async (trx) => {
      await trx
        .insertInto('meta')
        .values(LEGACY_SEEDED.map((name) => ({ key: markerOf(name), value: iso(ctx.now) })))
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      await trx.deleteFrom('meta').where('key', '=', LEGACY_MARKER).execute();
    });
  }
  let seeded = false;
  for (const domain of domains) {
    const seed = domain.seed;
    if (!seed) continue;
    seeded =
      (await inTransaction(db, async (trx) => {
        const claimed = await trx
          .insertInto('meta')
          .values({ key: markerOf(domain.name), value: iso(ctx.now) })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        if (!claimed) return false;
        await seed(trx, ctx);
        return true;
      })) || seeded;
  }
  return seeded;
};
