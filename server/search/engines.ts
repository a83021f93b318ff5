import type { Db } from '../db/schema';
import { isSqlite } from './dialect';
import type { SearchEngine } from './engine';
import { postgresEngine } from './postgres';
import { sqliteEngine } from './sqlite';

/** The engine of a handle's dialect: SQLite FTS5, or PostgreSQL full-text. */
export const engineFor = (db: Db): SearchEngine => (isSqlite(db) ? sqliteEngine : postgresEngine);

const REINDEX_CHUNK = 500;

/**
 * Indexes every document not indexed yet, in chunks read by keyset on the primary key: what
 * migration 0011 runs over the documents stored before it (later ones are indexed as they are
 * inserted).
 */
export async function reindexAll(db: Db): Promise<number> {
  const engine = engineFor(db);
  let after = '';
  let done = 0;
  for (;;) {
    const docs = await db
      .selectFrom('documents as d')
      .leftJoin('search_meta as m', 'm.document_id', 'd.id')
      .select([
        'd.id',
        'd.seq',
        'd.title',
        'd.plain_text',
        'd.source_id',
        'd.unix',
        'd.owner_user_id',
        'd.category_tab',
        'd.market',
        'd.company_name',
        'd.security_id',
        'd.category',
        'd.categories',
      ])
      .where('m.seq', 'is', null)
      .where('d.id', '>', after)
      .orderBy('d.id')
      .limit(REINDEX_CHUNK)
      .execute();
    if (docs.length === 0) return done;
    await engine.index(
      db,
      docs.map((d) => ({ ...d, seq: Number(d.seq), unix: Number(d.unix) })),
    );
    done += docs.length;
    after = docs[docs.length - 1].id;
  }
}
