import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema';
import type { EngineFilter, SearchExpr, SearchScope } from './engine';
import type { Answer, Fused } from './matcher';
import { positivePart, toTsquery } from './query';
import { filterCond, guard, scopeCond, tabCond, type Candidate } from './scope-sql';
import { distinctRows, streamOrder, streamQuery, type StreamRow } from './scope-stream';

/**
 * The PostgreSQL engine's plans, each step one statement (matcher.ts `Fused`): the tsvector
 * match, the scope, the viewer guard and the filters in one query over `search_meta m`, where
 * SQLite's shape (the index read over a seq range, then the candidates checked in a second
 * statement) costs PostgreSQL a GIN scan of the word's whole posting list per range (GIN cannot
 * read a seq range) and a round trip per step. Few matches: PostgreSQL's planner picks the GIN
 * index or a scope index per query and ranks inside the server. Relevance over many: the best
 * k ranked and checked by key in the same statement. Walks in time order: the scope's chunk
 * read by its time index (the plan PostgreSQL picks for a common word newest first), each
 * row's tsvector tested as it is read. The planner (planner.ts) decides plans, chunks and
 * counts as it does for SQLite: the answers are the same documents, in the same order.
 */

type Query = EngineFilter & { expr: SearchExpr | null; scope: SearchScope };

/** A tsquery cast from its text form, a bound parameter (query.ts `toTsquery`). */
export const tsquery = (expr: SearchExpr) => sql`${toTsquery(expr)}::tsquery`;

const COLUMNS = sql`m.seq, m.document_id, m.unix, m.tab, m.size, m.company, m.category`;

type Row = Omit<Candidate, 'seq' | 'unix' | 'size'> & {
  seq: number | string;
  unix: number | string;
  size: number | string;
  s: number | string | null;
};

const answerOf = (r: Row): Answer => ({
  seq: Number(r.seq),
  document_id: r.document_id,
  unix: Number(r.unix),
  tab: r.tab,
  size: Number(r.size),
  company: r.company,
  category: r.category,
  score: r.s === null ? null : Number(r.s),
});

export function postgresFused(db: Db, q: Query): Fused {
  const match: RawBuilder<unknown> | null = q.expr ? sql`m.tsv @@ ${tsquery(q.expr)}` : null;
  const wanted = q.expr ? positivePart(q.expr) : null;
  // ts_rank scores a negated word as a miss: relevance is of what the query asks to find.
  const rank = wanted ? sql`ts_rank(m.tsv, ${tsquery(wanted)})` : sql`0`;
  const matched = match ?? sql`1 = 1`;
  const inScope = sql`${guard(q.scope.viewerId)} AND ${scopeCond(db, q.scope)} AND ${filterCond(q, q.scope.viewerId)}`;
  return {
    async answers(lo, scored) {
      const { rows } = await sql<Row>`SELECT ${COLUMNS}, ${scored ? rank : sql`NULL`} AS s
        FROM search_meta m WHERE ${matched} ${lo === null ? sql`` : sql`AND m.seq >= ${lo}`}
          AND ${inScope}`.execute(db);
      return rows.map(answerOf);
    },
    async best(k) {
      // The index's best k (ranked all together, as SQLite ranks them), then each checked
      // against the scope by its key; the last row carries how many documents match.
      const { rows } = await sql<Row & { n: string | null }>`
        WITH ranked AS MATERIALIZED (
          SELECT m.seq, ${rank} AS s FROM search_meta m WHERE ${matched}),
        best AS MATERIALIZED (SELECT seq, s FROM ranked ORDER BY s DESC, seq DESC LIMIT ${k})
        SELECT ${COLUMNS}, b.s, NULL AS n FROM best b JOIN search_meta m ON m.seq = b.seq
        WHERE ${inScope}
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (SELECT count(*) FROM ranked)`.execute(
        db,
      );
      const last = rows.pop();
      return { rows: rows.map(answerOf), matches: Number(last?.n ?? 0) };
    },
    async timeChunk(dir, cursor, limit) {
      // The scope's chunk (scope-stream.ts: each part read in time order) with each row's match
      // computed as it is read; only the matches and the chunk's last row come back.
      const chunk = streamQuery(q.scope, q, dir, cursor, limit, match ?? sql`true`);
      if (!chunk) return { hits: [], last: null, exhausted: true };
      const { rows } = await sql<StreamRow & { hit: boolean; n: string; i: string }>`
        SELECT * FROM (SELECT c.*, count(*) OVER () AS n,
          row_number() OVER (ORDER BY ${streamOrder(dir)}) AS i FROM (${chunk}) c) t
        WHERE t.hit OR t.i = t.n ORDER BY t.i`.execute(db);
      const read = rows.length ? Number(rows[0].n) : 0;
      const end = rows[rows.length - 1];
      return {
        hits: distinctRows(rows.filter((r) => r.hit)),
        last: end ? { unix: Number(end.unix), seq: Number(end.seq) } : null,
        exhausted: read < limit,
      };
    },
    async seqChunk(dir, after, limit) {
      const desc = dir === 'desc';
      const from =
        after === null ? sql`` : desc ? sql`AND m.seq < ${after}` : sql`AND m.seq > ${after}`;
      // The chunk of matches (as the index streams them), then each checked by its key; the
      // last row carries the chunk's last match and its size.
      const { rows } = await sql<Row & { n: string | null }>`
        WITH c AS MATERIALIZED (
          SELECT m.seq FROM search_meta m WHERE ${matched} ${from}
          ORDER BY m.seq ${sql.raw(desc ? 'DESC' : 'ASC')} LIMIT ${limit})
        SELECT ${COLUMNS}, NULL AS s, NULL AS n FROM c JOIN search_meta m ON m.seq = c.seq
        WHERE ${inScope} AND ${tabCond(q)}
        UNION ALL
        SELECT (SELECT ${sql.raw(desc ? 'min' : 'max')}(seq) FROM c), NULL, NULL, NULL, NULL,
          NULL, NULL, NULL, (SELECT count(*) FROM c)`.execute(db);
      const end = rows.pop();
      const read = Number(end?.n ?? 0);
      return {
        hits: rows.map(answerOf),
        last: end?.seq == null ? null : Number(end.seq),
        exhausted: read < limit,
      };
    },
  };
}
