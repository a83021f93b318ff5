import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema';
import type { EngineFilter, SearchExpr, SearchScope } from './engine';
import type { Answer, Fused } from './matcher';
import { positivePart, toTsquery } from './query';
import { filterCond, guard, scopeCond, tabCond, type Candidate } from './scope-sql';
import { scopeStream, type Cursor, type StreamRow } from './scope-stream';

/**
 * The PostgreSQL engine's plans as single statements (matcher.ts `Fused`): the tsvector match,
 * the scope, the viewer guard and the filters in one WHERE clause over `search_meta m`, so that
 * PostgreSQL's planner picks how to read them per query from its statistics: for a common word
 * newest first it reads the time index backwards and tests each row's tsvector (a fraction of a
 * millisecond for a page), for a rare one it reads the word's GIN entries and sorts them, and
 * the relevance of every match is ranked inside the server. SQLite's way (the index read over
 * seq ranges, then the candidates checked against the scope in a second statement) costs
 * PostgreSQL a GIN scan per range (GIN cannot read a seq range) and a round trip per step.
 * The planner (planner.ts) decides the plan and its counts the same way on both engines: these
 * answer the same documents in the same order.
 */

type Query = EngineFilter & { expr: SearchExpr | null; scope: SearchScope };

/** A tsquery cast from its text form, a bound parameter (query.ts `toTsquery`). */
export const tsquery = (expr: SearchExpr) => sql`${toTsquery(expr)}::tsquery`;

/** The chunk a walk in time order grows to when documents in two parts of the scope repeat. */
const CHUNK_MAX = 20_000;

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
  const inScope = sql`${guard(q.scope.viewerId)} AND ${scopeCond(db, q.scope)} AND ${filterCond(q)}`;
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
        WITH best AS MATERIALIZED (
          SELECT m.seq, ${rank} AS s, count(*) OVER () AS n FROM search_meta m
          WHERE ${matched} ORDER BY s DESC, m.seq DESC LIMIT ${k})
        SELECT ${COLUMNS}, b.s, NULL AS n FROM best b JOIN search_meta m ON m.seq = b.seq
        WHERE ${inScope}
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, (SELECT max(n) FROM best)`.execute(
        db,
      );
      const last = rows.pop();
      return { rows: rows.map(answerOf), matches: Number(last?.n ?? 0) };
    },
    async byTime(dir, limit) {
      // The scope's own walk (scope-stream.ts: each part read in time order), the match tested
      // in each part; a document in two parts comes once, so a short chunk may need another.
      const hits: StreamRow[] = [];
      let cursor: Cursor | null = null;
      for (let chunk = limit; ; chunk = Math.min(chunk * 4, CHUNK_MAX)) {
        const { rows, exhausted } = await scopeStream(
          db,
          q.scope,
          q,
          dir,
          cursor,
          chunk,
          match ?? undefined,
        );
        hits.push(...rows);
        if (hits.length >= limit || exhausted) return { hits, exhausted };
        const last = rows[rows.length - 1];
        cursor = { unix: last.unix, seq: last.seq };
      }
    },
    async bySeq(dir, limit) {
      const { rows } = await sql<Row>`SELECT ${COLUMNS}, NULL AS s FROM search_meta m
        WHERE ${matched} AND ${inScope} AND ${tabCond(q)}
        ORDER BY m.seq ${sql.raw(dir === 'desc' ? 'DESC' : 'ASC')} LIMIT ${limit}`.execute(db);
      return { hits: rows.map(answerOf), exhausted: rows.length < limit };
    },
  };
}
