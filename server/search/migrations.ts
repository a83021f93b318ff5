import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../db/schema';
import { isSqlite } from './dialect';
import { reindexAll } from './engines';
import { entitiesSchema } from './entities';
import { passageTextHash } from './indexing';

/**
 * The search engine's schema (issue 7), one migration per dialect:
 *
 * - SQLite: contentless FTS5 tables (the text lives once, in documents.plain_text) for
 *   documents (rowid = documents.seq; columns title, body and `facets`, synthetic tokens that
 *   scope a match: sqlite.ts) and for passages (rowid = passage id, the same facets); a
 *   trigger takes a deleted document (a source deleted, its documents cascading) out of both.
 * - PostgreSQL: tsvector columns with GIN indexes, written from the same words as SQLite's
 *   (postgres.ts), on the engine's per-document table and on passages.
 * - Both: `search_meta` (what scoping, filters and sorts read per candidate), `search_tags`,
 *   `document_passages` and `search_terms` (documents per word and the counters the planner
 *   estimates with), deleted with their document by foreign keys. Documents stored before this
 *   migration are indexed by 0015 (the whole index rebuilt from stems, after 0013 and 0014).
 */

const TOKENIZE = `tokenize = 'unicode61 remove_diacritics 2'`;

const sqliteUp = async (db: Kysely<unknown>) => {
  const statements = [
    `CREATE VIRTUAL TABLE search_docs USING fts5(title, body, facets,
      content = '', contentless_delete = 1, ${TOKENIZE})`,
    `CREATE VIRTUAL TABLE search_passages USING fts5(body, facets,
      content = '', contentless_delete = 1, ${TOKENIZE})`,
    `CREATE TABLE search_meta (
      seq INTEGER PRIMARY KEY,
      document_id TEXT NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
      unix INTEGER NOT NULL, source_id TEXT NOT NULL, owner_user_id TEXT, source_owner TEXT,
      public INTEGER NOT NULL, tab TEXT NOT NULL, market TEXT, size INTEGER NOT NULL,
      company TEXT, category TEXT)`,
    `CREATE INDEX search_meta_unix ON search_meta (unix, seq)`,
    `CREATE INDEX search_meta_source ON search_meta (source_id, unix, seq)`,
    `CREATE INDEX search_meta_owner ON search_meta (owner_user_id, unix, seq)
      WHERE owner_user_id IS NOT NULL`,
    `CREATE TABLE search_tags (
      seq INTEGER NOT NULL REFERENCES search_meta(seq) ON DELETE CASCADE,
      tag TEXT NOT NULL, PRIMARY KEY (seq, tag)) WITHOUT ROWID`,
    // A document's passages are the id range of its seq (id = seq * 1024 + ordinal): that range
    // is the index by document; a second index on document_id would cost every insert a random
    // write, for nothing the range cannot do.
    `CREATE TABLE document_passages (
      id INTEGER PRIMARY KEY, document_id TEXT NOT NULL,
      ordinal INTEGER NOT NULL, span_start INTEGER NOT NULL, span_end INTEGER NOT NULL)`,
    `CREATE TABLE search_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID`,
    // The FTS rows and passages have no foreign key to follow: the trigger removes them with
    // the document. FTS5 deletes a rowid range by scanning the table, so passages go by id.
    `CREATE TRIGGER search_unindex BEFORE DELETE ON documents BEGIN
      DELETE FROM search_docs WHERE rowid = old.seq;
      DELETE FROM search_passages WHERE rowid IN (SELECT id FROM document_passages
        WHERE id BETWEEN old.seq * 1024 AND old.seq * 1024 + 1023);
      DELETE FROM document_passages WHERE id BETWEEN old.seq * 1024 AND old.seq * 1024 + 1023;
    END`,
    `CREATE TRIGGER search_meta_counts AFTER DELETE ON search_meta BEGIN
      UPDATE search_terms SET docs = docs - 1 WHERE term IN ('', ':src:' || old.source_id,
        ':own:' || old.owner_user_id, CASE WHEN old.public = 1 THEN ':pub' END);
    END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
};

const postgresUp = async (db: Kysely<unknown>) => {
  const statements = [
    `CREATE TABLE search_meta (
      seq integer PRIMARY KEY,
      document_id text NOT NULL UNIQUE REFERENCES documents(id) ON DELETE CASCADE,
      unix integer NOT NULL, source_id text NOT NULL, owner_user_id text, source_owner text,
      public integer NOT NULL, tab text NOT NULL, market text, size integer NOT NULL,
      company text, category text, tsv tsvector NOT NULL)`,
    `CREATE INDEX search_meta_tsv ON search_meta USING gin (tsv)`,
    `CREATE INDEX search_meta_unix ON search_meta (unix, seq)`,
    `CREATE INDEX search_meta_source ON search_meta (source_id, unix, seq)`,
    `CREATE INDEX search_meta_owner ON search_meta (owner_user_id, unix, seq)
      WHERE owner_user_id IS NOT NULL`,
    `CREATE TABLE search_tags (
      seq integer NOT NULL REFERENCES search_meta(seq) ON DELETE CASCADE,
      tag text NOT NULL, PRIMARY KEY (seq, tag))`,
    `CREATE TABLE document_passages (
      id bigint PRIMARY KEY,
      document_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      ordinal integer NOT NULL, span_start integer NOT NULL, span_end integer NOT NULL,
      tsv tsvector NOT NULL)`,
    `CREATE INDEX document_passages_document ON document_passages (document_id, ordinal)`,
    `CREATE INDEX document_passages_tsv ON document_passages USING gin (tsv)`,
    // Byte order: similarTerms reads a first letter's words as a range of keys.
    `CREATE TABLE search_terms (term text COLLATE "C" PRIMARY KEY, docs integer NOT NULL)`,
    `CREATE FUNCTION search_meta_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE search_terms SET docs = docs - 1 WHERE term IN ('', ':src:' || old.source_id,
        ':own:' || old.owner_user_id, CASE WHEN old.public = 1 THEN ':pub' END);
      RETURN old;
    END $$`,
    `CREATE TRIGGER search_meta_counts AFTER DELETE ON search_meta
      FOR EACH ROW EXECUTE FUNCTION search_meta_counts()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
};

/**
 * The scoped vocabularies (0013, vocabulary.ts): documents per word of each private source and
 * of each user's own documents. The key (scope_key, term) is also how a misspelling's
 * candidates are found: per scope key, the range of words of its first letter, their length
 * filtered, as similarTerms reads search_terms (both planners pick it; an index on the length
 * went unused by SQLite, a write per new word for nothing). IF NOT EXISTS: a database made
 * while 0011 created it has it already.
 */
const scopedTermsSchema = (sqlite: boolean) => [
  sqlite
    ? `CREATE TABLE IF NOT EXISTS search_scoped_terms (scope_key TEXT NOT NULL,
        term TEXT NOT NULL, docs INTEGER NOT NULL, PRIMARY KEY (scope_key, term)) WITHOUT ROWID`
    : // Byte order, as search_terms: candidates are a first letter's range of keys.
      `CREATE TABLE IF NOT EXISTS search_scoped_terms (scope_key text NOT NULL,
        term text COLLATE "C" NOT NULL, docs integer NOT NULL, PRIMARY KEY (scope_key, term))`,
];

/**
 * Empties the index (0015 rebuilds it): SQLite's FTS5 tables by their 'delete-all' command,
 * PostgreSQL's tables by TRUNCATE (no row triggers: the counters go with search_terms).
 */
async function clearIndex(db: Kysely<unknown>): Promise<void> {
  const statements = isSqlite(db)
    ? [
        `INSERT INTO search_docs (search_docs) VALUES ('delete-all')`,
        `INSERT INTO search_passages (search_passages) VALUES ('delete-all')`,
        'DELETE FROM document_passages',
        'DELETE FROM search_tags',
        'DELETE FROM search_meta',
        'DELETE FROM search_terms',
        'DELETE FROM search_scoped_terms',
      ]
    : [
        `TRUNCATE search_tags, search_meta, document_passages, search_terms,
          search_scoped_terms`,
      ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * document_passages.text_hash (0030): what the index writes with every passage since, so a
 * rebuild (0015) run by this code on an older database needs it too. Added once.
 */
async function addTextHash(db: Kysely<unknown>): Promise<void> {
  const sqlite = isSqlite(db);
  if (sqlite) {
    const { rows } = await sql<{
      name: string;
    }>`SELECT name FROM pragma_table_info('document_passages')
      WHERE name = 'text_hash'`.execute(db);
    if (rows.length === 0) {
      await sql.raw('ALTER TABLE document_passages ADD COLUMN text_hash TEXT').execute(db);
    }
  } else {
    await sql
      .raw('ALTER TABLE document_passages ADD COLUMN IF NOT EXISTS text_hash text')
      .execute(db);
  }
}

/** Documents whose passages' hashes are filled per round (their texts are read whole). */
const BACKFILL_DOCUMENTS = 50;
/** Passages per UPDATE. */
const BACKFILL_ROWS = 200;

/**
 * Fills text_hash for the passages indexed before 0030: documents by seq in chunks, each
 * document's text read once, the hashes written in multi-row UPDATEs.
 */
async function backfillTextHashes(db: Kysely<unknown>): Promise<void> {
  const d = db as unknown as Db;
  const sqlite = isSqlite(db);
  let after = -1;
  for (;;) {
    const docs = await d
      .selectFrom('search_meta as m')
      .innerJoin('documents as doc', 'doc.id', 'm.document_id')
      .select(['m.seq', 'doc.plain_text'])
      .where('m.seq', '>', after)
      .orderBy('m.seq')
      .limit(BACKFILL_DOCUMENTS)
      .execute();
    if (docs.length === 0) return;
    const rows: Array<{ id: number; hash: string }> = [];
    for (const doc of docs) {
      const seq = Number(doc.seq);
      const passages = await d
        .selectFrom('document_passages')
        .select(['id', 'span_start', 'span_end'])
        .where('id', '>=', seq * 1024)
        .where('id', '<=', seq * 1024 + 1023)
        .where('text_hash', 'is', null)
        .execute();
      for (const p of passages) {
        rows.push({
          id: Number(p.id),
          hash: passageTextHash(doc.plain_text.slice(p.span_start, p.span_end)),
        });
      }
    }
    for (let i = 0; i < rows.length; i += BACKFILL_ROWS) {
      const chunk = rows.slice(i, i + BACKFILL_ROWS);
      const values = sql.join(
        chunk.map((r) =>
          sqlite ? sql`(CAST(${r.id} AS INTEGER), ${r.hash})` : sql`(${r.id}::bigint, ${r.hash})`,
        ),
      );
      await (
        sqlite
          ? sql`UPDATE document_passages SET text_hash = v.column2 FROM (VALUES ${values}) AS v
            WHERE document_passages.id = v.column1`
          : sql`UPDATE document_passages p SET text_hash = v.h FROM (VALUES ${values}) AS v(id, h)
            WHERE p.id = v.id`
      ).execute(db);
    }
    after = Number(docs[docs.length - 1].seq);
  }
}

export const searchMigrations: Record<string, Migration> = {
  '0011-search': {
    up: async (db: Kysely<unknown>) => {
      await (isSqlite(db) ? sqliteUp(db) : postgresUp(db));
      // Documents stored before it are indexed by 0015 (reindexAll), once every table and
      // column the index writes exists (0013, 0014).
    },
    down: async (db: Kysely<unknown>) => {
      const sqlite = isSqlite(db);
      const drops = sqlite
        ? ['TRIGGER IF EXISTS search_unindex', 'TABLE IF EXISTS search_docs']
        : ['FUNCTION IF EXISTS search_meta_counts() CASCADE'];
      drops.push(
        'TABLE IF EXISTS search_tags',
        'TABLE IF EXISTS search_meta',
        'TABLE IF EXISTS document_passages',
        'TABLE IF EXISTS search_terms',
      );
      if (sqlite) drops.push('TABLE IF EXISTS search_passages');
      for (const what of drops) await sql.raw(`DROP ${what}`).execute(db);
    },
  },
  // Scoped vocabularies (vocabulary.ts): spelling corrects to words of the user's own private
  // sources and documents too (spell.ts). Documents indexed before it are counted by the
  // rebuild that follows (0015).
  '0013-search-scoped-words': {
    up: async (db: Kysely<unknown>) => {
      for (const statement of scopedTermsSchema(isSqlite(db))) {
        await sql.raw(statement).execute(db);
      }
    },
    down: async (db: Kysely<unknown>) => {
      await sql.raw('DROP TABLE IF EXISTS search_scoped_terms').execute(db);
    },
  },
  // Filers (entities.ts): each document's organisation and the names a question may call it
  // by. Existing documents get theirs from the reindex that follows (0015).
  '0014-entities': {
    up: async (db: Kysely<unknown>) => {
      const statements = isSqlite(db) ? entitiesSchema.sqlite : entitiesSchema.postgres;
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
    down: async (db: Kysely<unknown>) => {
      await sql.raw('DROP TABLE IF EXISTS search_entity_aliases').execute(db);
      await sql.raw('DROP TABLE IF EXISTS search_entities').execute(db);
      await sql.raw('DROP INDEX IF EXISTS search_meta_entity').execute(db);
      await sql.raw('ALTER TABLE search_meta DROP COLUMN entity').execute(db);
    },
  },
  // Words match by stem (contract/words.ts, issue 16): the index of every existing document is
  // rebuilt from its stems. Everything the index writes per document goes first (full-text
  // rows, passages, search_meta with its tags, the vocabularies and counters), so nothing is
  // counted or written twice; reindexAll then indexes every document as new, entities too.
  '0015-search-reindex': {
    up: async (db: Kysely<unknown>) => {
      await clearIndex(db);
      await addTextHash(db);
      await reindexAll(db as unknown as Db);
    },
    // The stems stay: older code reads an index of stems as words, matching less, never wrong.
    down: async () => {},
  },
  // Copies of one text (syndicated news, boilerplate, a document repeating its pages) are told
  // apart by a hash of the passage's text written with it (indexing.ts passageTextHash), so
  // retrieval keeps one passage per distinct text without reading documents' texts
  // (engine-base.ts); the passages indexed before are filled here.
  '0030-passage-text-hash': {
    up: async (db: Kysely<unknown>) => {
      await addTextHash(db);
      await backfillTextHashes(db);
    },
    down: async (db: Kysely<unknown>) => {
      await sql.raw('ALTER TABLE document_passages DROP COLUMN text_hash').execute(db);
    },
  },
};
