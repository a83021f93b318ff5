import { DEMO_ACCOUNT, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { BUILTIN_SOURCES } from '../catalogue';
import { generateCorpus } from './corpus';
import { homeFeedId } from '../boards';
import { setReadState } from '../documents';
import { insertDocuments } from '../content';

/** Documents per built-in source in the demo workspace (nine sources: a few hundred in all). */
export const DEMO_DOCS_PER_SOURCE = 40;
export const DEMO_CORPUS_SEED = 20250303;
/** The demo user has read this many of the newest documents of their feed. */
const DEMO_READ = 6;

/**
 * The demo corpus: generated news, Indian and US filings and research in the built-in sources
 * (after the sources seed, so they fan out to the demo accounts' home feeds), and a few of the
 * newest marked read for the demo user (when the database has one).
 */
export const seedDocuments = async (db: Db, { now }: SeedContext) => {
  const corpus = generateCorpus({
    seed: DEMO_CORPUS_SEED,
    count: DEMO_DOCS_PER_SOURCE * BUILTIN_SOURCES.length,
    now,
    sources: BUILTIN_SOURCES.map((s) => ({ ...s, id: s.key })),
  });
  for (const [sourceId, items] of corpus) await insertDocuments(db, sourceId, items, { now });
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return;
  const newest = await db
    .selectFrom('feed_entries')
    .select('document_id')
    .where('feed_id', '=', homeFeedId(demo.id))
    .orderBy('unix', 'desc')
    .limit(DEMO_READ)
    .execute();
  await setReadState(
    db,
    demo.id,
    newest.map((r) => r.document_id),
    'read',
    now,
  );
};
