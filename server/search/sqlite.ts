import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema';
import type { SearchExpr, SearchScope } from './engine';
import { createEngine } from './engine-base';
import { hashToken, passageRows, ROWS_PER_INSERT, type PreparedDocument } from './indexing';
import type { Matcher } from './matcher';
import { toFts5 } from './query';
import { stemsOfDocument, stemsWithin, stemText } from './stems';

/**
 * The SQLite engine: contentless FTS5 tables keyed by documents.seq (search_docs: title, body,
 * facets) and by passage id (search_passages: body, facets), whose text columns are written the
 * STEMS of the words in order (stems.ts; queries are stems too: query.ts toFts5). The facets column holds tokens
 * only the engine writes (letters and digits, never matched by a query, which names only the
 * text columns): `xall` on every document (the universe a lone NOT needs, since FTS5's NOT is
 * binary), `xpub` on the public corpus, and one token per source and per owner, so a scope of a
 * few sources or a user's own documents narrows the match inside FTS5 itself.
 *
 * Rowids are bound through CAST: better-sqlite3 binds JS numbers as REAL, and FTS5 ignores a
 * rowid constraint whose value is not an INTEGER (it would return every match).
 */

const UNIVERSE = 'facets : "xall"';
const TEXT = '{title body}';
/** bm25 weights of title, body and facets. */
const BM25 = sql.raw('bm25(search_docs, 4.0, 1.0, 0.0)');
/** A scope of at most this many sources narrows the match by their tokens. */
const SOURCE_TOKENS = 16;

const sourceToken = (id: string) => hashToken('xsrc', id);
const ownerToken = (id: string) => hashToken('xown', id);

const facetsOf = (p: PreparedDocument) =>
  [
    'xall',
    p.meta.public ? 'xpub' : null,
    sourceToken(p.meta.source_id),
    p.meta.owner_user_id ? ownerToken(p.meta.owner_user_id) : null,
  ]
    .filter(Boolean)
    .join(' ');

/**
 * The scope as facet tokens, when it is only a few sources and the user's own documents: a
 * superset of the scope (the viewer guard and filters are checked after, in SQL).
 */
function scopeTokens(scope: SearchScope): string | null {
  if (scope.feeds.length || scope.publicCorpus || scope.sourceIds.length > SOURCE_TOKENS) {
    return null;
  }
  const tokens = [
    ...scope.sourceIds.map(sourceToken),
    ...(scope.ownedBy ? [ownerToken(scope.ownedBy)] : []),
  ];
  return tokens.length ? `facets : (${tokens.map((t) => `"${t}"`).join(' OR ')})` : null;
}

const matchText = (expr: SearchExpr | null, scope: SearchScope) => {
  const parts = [expr ? toFts5(expr, UNIVERSE, TEXT) : null, scopeTokens(scope)].filter(
    (p): p is string => p !== null,
  );
  if (parts.length === 0) return UNIVERSE;
  return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' AND ');
};

const between = (lo: number | null, hi: number | null): RawBuilder<unknown> =>
  sql`${lo === null ? sql`` : sql`AND rowid >= CAST(${lo} AS INTEGER)`}
    ${hi === null ? sql`` : sql`AND rowid <= CAST(${hi} AS INTEGER)`}`;

function sqliteMatcher(db: Db, expr: SearchExpr | null, scope: SearchScope): Matcher {
  const match = matchText(expr, scope);
  const seqs = (rows: Array<{ rowid: number }>) => rows.map((r) => Number(r.rowid));
  return {
    async range(lo, hi) {
      const { rows } = await sql<{ rowid: number }>`SELECT rowid FROM search_docs
        WHERE search_docs MATCH ${match} ${between(lo, hi)}`.execute(db);
      return seqs(rows);
    },
    async scored(lo, limit) {
      const { rows } = await sql<{ rowid: number; s: number }>`SELECT rowid, ${BM25} AS s
        FROM search_docs WHERE search_docs MATCH ${match} ${between(lo, null)}
        ORDER BY s, rowid DESC ${limit === undefined ? sql`` : sql`LIMIT ${limit}`}`.execute(db);
      // bm25 is lower for better matches.
      return rows.map((r) => ({ seq: Number(r.rowid), score: -r.s }));
    },
    async count() {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM search_docs
        WHERE search_docs MATCH ${match}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    async stream(dir, after, limit) {
      const from =
        after === null
          ? sql``
          : dir === 'desc'
            ? sql`AND rowid < CAST(${after} AS INTEGER)`
            : sql`AND rowid > CAST(${after} AS INTEGER)`;
      const { rows } = await sql<{ rowid: number }>`SELECT rowid FROM search_docs
        WHERE search_docs MATCH ${match} ${from}
        ORDER BY rowid ${sql.raw(dir === 'desc' ? 'DESC' : 'ASC')}
        LIMIT ${limit}`.execute(db);
      return seqs(rows);
    },
    async test(candidates) {
      if (candidates.length === 0) return new Set();
      // One FTS5 lookup per candidate (an IN list is not handed to FTS5 as a constraint).
      const { rows } = await sql<{
        seq: number;
      }>`SELECT v.value AS seq FROM json_each(${JSON.stringify(
        candidates,
      )}) v WHERE EXISTS (SELECT 1 FROM search_docs
        WHERE search_docs MATCH ${match} AND rowid = v.value)`.execute(db);
      return new Set(rows.map((r) => Number(r.seq)));
    },
  };
}

async function write(db: Db, batch: PreparedDocument[]): Promise<void> {
  for (let i = 0; i < batch.length; i += ROWS_PER_INSERT) {
    const chunk = batch.slice(i, i + ROWS_PER_INSERT);
    await db
      .insertInto('search_meta')
      .values(chunk.map((p) => p.meta))
      .execute();
    // The text indexed is the words' stems in order (stems.ts): phrases match by position.
    const values = chunk.map((p) => {
      const { title, body } = stemsOfDocument(p.doc);
      return sql`(CAST(${p.meta.seq} AS INTEGER), ${stemText(title)}, ${stemText(body.stems)},
        ${facetsOf(p)})`;
    });
    await sql`INSERT INTO search_docs (rowid, title, body, facets)
      VALUES ${sql.join(values)}`.execute(db);
  }
  const facets = new Map(batch.map((p) => [p.doc.id, facetsOf(p)]));
  const docs = new Map(batch.map((p) => [p.doc.id, p.doc]));
  const passages = passageRows(batch);
  for (let i = 0; i < passages.length; i += ROWS_PER_INSERT) {
    const chunk = passages.slice(i, i + ROWS_PER_INSERT);
    await db
      .insertInto('document_passages')
      .values(chunk.map(({ text: _text, ...row }) => row))
      .execute();
    const values = chunk.map((p) => {
      const { body } = stemsOfDocument(docs.get(p.document_id)!);
      const text = stemText(stemsWithin(body, p.span_start, p.span_end));
      return sql`(CAST(${p.id} AS INTEGER), ${text}, ${facets.get(p.document_id)})`;
    });
    await sql`INSERT INTO search_passages (rowid, body, facets)
      VALUES ${sql.join(values)}`.execute(db);
  }
}

async function remove(db: Db, seqs: number[]): Promise<void> {
  for (const seq of seqs) {
    await sql`DELETE FROM search_docs WHERE rowid = CAST(${seq} AS INTEGER)`.execute(db);
    // By id: FTS5 would delete a rowid range by scanning the whole table.
    await sql`DELETE FROM search_passages WHERE rowid IN (SELECT id FROM document_passages
      WHERE id BETWEEN CAST(${seq * 1024} AS INTEGER) AND CAST(${seq * 1024 + 1023} AS INTEGER))`.execute(
      db,
    );
  }
}

export const sqliteEngine = createEngine({
  name: 'sqlite-fts5',
  write,
  remove,
  matcher: sqliteMatcher,
  async passages(db, expr, limit, ids) {
    const match = toFts5(expr, UNIVERSE, '{body}');
    const range =
      ids === null
        ? sql``
        : sql`AND rowid BETWEEN CAST(${ids.lo} AS INTEGER) AND CAST(${ids.hi} AS INTEGER)`;
    const { rows } = await sql<{ rowid: number; s: number }>`SELECT rowid,
        bm25(search_passages, 1.0, 0.0) AS s
      FROM search_passages WHERE search_passages MATCH ${match} ${range}
      ORDER BY s LIMIT ${limit}`.execute(db);
    return rows.map((r) => ({ id: Number(r.rowid), score: -r.s }));
  },
});
