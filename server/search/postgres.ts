import { sql } from 'kysely';
import type { Db } from '../db/schema';
import type { SearchExpr } from './engine';
import { createEngine } from './engine-base';
import { passageRows, ROWS_PER_INSERT, type PreparedDocument } from './indexing';
import type { Matcher } from './matcher';
import { postgresFused, tsquery } from './postgres-plans';
import { stemsOf } from '../../contract/words';
import { MAX_LEXEME, positivePart } from './query';
import { stemsOfDocument, stemsWithin } from './stems';

/**
 * The PostgreSQL engine: a tsvector per document (search_meta.tsv) and per passage, each with a
 * GIN index. The tsvectors are written here from the STEMS of the index's words
 * (contract/words.ts `stemsOf`: lower-cased, folded, letters and digits, stemmed) in tsvector's
 * text form, and queries are tsquery text built from the same stems (`toTsquery`), both cast
 * from bound parameters: PostgreSQL's parser never reads user text, and both engines split
 * words alike. Title words weigh A, body words D (ts_rank's default weights: 1.0 and 0.1).
 */

/** tsvector positions stop at 16383; a lexeme keeps at most 256 of them. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/** A tsvector's text form from the stems of a title and a body: 'stem':1A,7 'other':3 ... */
export const tsvectorOf = (title: string, body: string): string =>
  tsvectorOfStems(stemsOf(title), stemsOf(body));

function tsvectorOfStems(title: readonly string[], body: readonly string[]): string {
  const lexemes = new Map<string, string[]>();
  let position = 0;
  const add = (word: string, weight: string) => {
    position = Math.min(position + 1, MAX_POSITION);
    if (word.length > MAX_LEXEME) return;
    const list = lexemes.get(word);
    const entry = `${position}${weight}`;
    if (!list) lexemes.set(word, [entry]);
    else if (list.length < MAX_POSITIONS && position < MAX_POSITION) list.push(entry);
  };
  for (const w of title) add(w, 'A');
  for (const w of body) add(w, '');
  // Words are letters and digits only: nothing in them needs escaping inside the quotes.
  return [...lexemes].map(([w, ps]) => `'${w}':${ps.join(',')}`).join(' ');
}

function postgresMatcher(db: Db, expr: SearchExpr | null): Matcher {
  const match = expr ? sql`m.tsv @@ ${tsquery(expr)}` : sql`1 = 1`;
  const seqs = (rows: Array<{ seq: number }>) => rows.map((r) => Number(r.seq));
  const between = (lo: number | null, hi: number | null) =>
    sql`${lo === null ? sql`` : sql`AND m.seq >= ${lo}`} ${hi === null ? sql`` : sql`AND m.seq <= ${hi}`}`;
  return {
    async range(lo, hi) {
      const { rows } = await sql<{ seq: number }>`SELECT m.seq FROM search_meta m
        WHERE ${match} ${between(lo, hi)}`.execute(db);
      return seqs(rows);
    },
    async scored(lo, limit) {
      const wanted = expr ? positivePart(expr) : null;
      const rank = wanted ? sql`ts_rank(m.tsv, ${tsquery(wanted)})` : sql`0`;
      const { rows } = await sql<{ seq: number; s: number }>`SELECT m.seq, ${rank} AS s
        FROM search_meta m WHERE ${match} ${between(lo, null)}
        ORDER BY s DESC, m.seq DESC ${limit === undefined ? sql`` : sql`LIMIT ${limit}`}`.execute(
        db,
      );
      return rows.map((r) => ({ seq: Number(r.seq), score: Number(r.s) }));
    },
    async count() {
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM search_meta m
        WHERE ${match}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    async stream(dir, after, limit) {
      const from =
        after === null
          ? sql``
          : dir === 'desc'
            ? sql`AND m.seq < ${after}`
            : sql`AND m.seq > ${after}`;
      const { rows } = await sql<{ seq: number }>`SELECT m.seq FROM search_meta m
        WHERE ${match} ${from} ORDER BY m.seq ${sql.raw(dir === 'desc' ? 'DESC' : 'ASC')}
        LIMIT ${limit}`.execute(db);
      return seqs(rows);
    },
    async test(candidates) {
      if (candidates.length === 0) return new Set();
      const { rows } = await sql<{ seq: number }>`SELECT m.seq FROM search_meta m
        WHERE m.seq = ANY(${candidates}::integer[]) AND ${match}`.execute(db);
      return new Set(seqs(rows));
    },
  };
}

async function write(db: Db, batch: PreparedDocument[]): Promise<void> {
  for (let i = 0; i < batch.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('search_meta')
      .values(
        batch.slice(i, i + ROWS_PER_INSERT).map((p) => {
          const { title, body } = stemsOfDocument(p.doc);
          return { ...p.meta, tsv: sql<string>`${tsvectorOfStems(title, body.stems)}::tsvector` };
        }),
      )
      .execute();
  }
  const docs = new Map(batch.map((p) => [p.doc.id, p.doc]));
  const passages = passageRows(batch);
  for (let i = 0; i < passages.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('document_passages')
      .values(
        passages.slice(i, i + ROWS_PER_INSERT).map(({ text: _text, ...row }) => {
          const { body } = stemsOfDocument(docs.get(row.document_id)!);
          const stems = stemsWithin(body, row.span_start, row.span_end);
          return { ...row, tsv: sql<string>`${tsvectorOfStems([], stems)}::tsvector` };
        }),
      )
      .execute();
  }
}

export const postgresEngine = createEngine({
  name: 'postgres',
  write,
  // The tsvectors live in search_meta's and document_passages' rows, which go after.
  remove: async () => {},
  matcher: (db, expr) => postgresMatcher(db, expr),
  fused: postgresFused,
  async passages(db, expr, limit, ids) {
    const q = tsquery(expr);
    const wanted = positivePart(expr);
    const rank = wanted ? sql`ts_rank(p.tsv, ${tsquery(wanted)})` : sql`0`;
    const range = ids === null ? sql`` : sql`AND p.id BETWEEN ${ids.lo} AND ${ids.hi}`;
    const { rows } = await sql<{ id: string; s: number }>`SELECT p.id, ${rank} AS s
      FROM document_passages p WHERE p.tsv @@ ${q} ${range}
      ORDER BY s DESC, p.id LIMIT ${limit}`.execute(db);
    return rows.map((r) => ({ id: Number(r.id), score: Number(r.s) }));
  },
});
