import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/schema';
import { isSqlite } from './dialect';
import type { EngineFilter, SearchScope } from './engine';
import './tables';

/**
 * The scope, the viewer guard and the filters as SQL over `search_meta m`, the same on both
 * engines: what a candidate of the full-text index must pass to be an answer.
 */

type Cond = RawBuilder<SqlBool>;

const TRUE: Cond = sql<SqlBool>`1 = 1`;
const FALSE: Cond = sql<SqlBool>`1 = 0`;
const all = (conds: Cond[]): Cond =>
  conds.length ? sql<SqlBool>`(${sql.join(conds, sql` AND `)})` : TRUE;
const any = (conds: Cond[]): Cond =>
  conds.length ? sql<SqlBool>`(${sql.join(conds, sql` OR `)})` : FALSE;

/** Never another user's document, nor one of another user's private source. */
export const guard = (viewerId: string): Cond =>
  sql<SqlBool>`(m.owner_user_id IS NULL OR m.owner_user_id = ${viewerId})
    AND (m.source_owner IS NULL OR m.source_owner = ${viewerId})`;

/**
 * A live entry in one of these feeds. PostgreSQL would read an EXISTS under an OR by hashing
 * every entry of the feed; as a correlated scalar subquery it looks each candidate up instead.
 */
export const feedCond = (db: Db, feeds: string[]): Cond => {
  const entry = sql`SELECT 1 FROM feed_entries fe WHERE fe.feed_id IN (${sql.join(feeds)})
    AND fe.document_id = m.document_id AND fe.removed = 0`;
  return isSqlite(db)
    ? sql<SqlBool>`EXISTS (${entry})`
    : sql<SqlBool>`(${entry} LIMIT 1) IS NOT NULL`;
};

/** In any part of the scope. */
export function scopeCond(db: Db, scope: SearchScope): Cond {
  const parts: Cond[] = [];
  if (scope.feeds.length) parts.push(feedCond(db, scope.feeds));
  if (scope.sourceIds.length)
    parts.push(sql<SqlBool>`m.source_id IN (${sql.join(scope.sourceIds)})`);
  if (scope.publicCorpus) parts.push(sql<SqlBool>`m.public = 1`);
  if (scope.ownedBy) parts.push(sql<SqlBool>`m.owner_user_id = ${scope.ownedBy}`);
  return any(parts);
}

const lowered = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

/**
 * The filters but the tab (tab counts are taken over the other tabs too). `tags` are the
 * viewer's own tags (user_tags by name, any case): a document passes when the viewer gave it one
 * of them; nobody else's tags are read.
 */
export function filterCond(f: EngineFilter, viewerId: string): Cond {
  const conds: Cond[] = [];
  if (f.from !== null) conds.push(sql<SqlBool>`m.unix >= ${f.from}`);
  if (f.to !== null) conds.push(sql<SqlBool>`m.unix <= ${f.to}`);
  if (f.market !== null) conds.push(sql<SqlBool>`m.market = ${f.market}`);
  if (f.companies !== null) {
    const names = lowered(f.companies);
    conds.push(names.length ? sql<SqlBool>`lower(m.company) IN (${sql.join(names)})` : FALSE);
  }
  if (f.tags !== null) {
    const names = lowered(f.tags);
    conds.push(
      names.length
        ? sql<SqlBool>`EXISTS (SELECT 1 FROM document_tags dt
            JOIN user_tags ut ON ut.user_id = dt.user_id AND ut.id = dt.tag_id
            WHERE dt.user_id = ${viewerId} AND dt.document_id = m.document_id
            AND ut.name_key IN (${sql.join(names)}))`
        : FALSE,
    );
  }
  return all(conds);
}

export const tabCond = (f: EngineFilter): Cond =>
  f.tab === null ? TRUE : sql<SqlBool>`m.tab = ${f.tab}`;

/** A candidate as the planner sorts and counts it. */
export type Candidate = {
  seq: number;
  document_id: string;
  unix: number;
  tab: string;
  size: number;
  company: string | null;
  category: string | null;
};

const CHECK_CHUNK = 2000;

/** `m.seq` is one of these: one parameter (a JSON array, or an array), whatever their number. */
export const seqIn = (db: Db, seqs: number[]): Cond =>
  isSqlite(db)
    ? sql<SqlBool>`m.seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))`
    : sql<SqlBool>`m.seq = ANY(${seqs}::integer[])`;

/** The candidates (seqs) that are answers, tab aside, in no particular order. */
export async function checkCandidates(
  db: Db,
  seqs: number[],
  scope: SearchScope,
  f: EngineFilter,
): Promise<Candidate[]> {
  // Each candidate is one primary-key lookup: SQLite must not read a source's documents by
  // the source index instead (a scope of many sources would have it read them all).
  const table = isSqlite(db) ? sql`search_meta m NOT INDEXED` : sql`search_meta m`;
  const cond = sql`${guard(scope.viewerId)} AND ${scopeCond(db, scope)} AND ${filterCond(f, scope.viewerId)}`;
  const out: Candidate[] = [];
  for (let i = 0; i < seqs.length; i += CHECK_CHUNK) {
    const { rows } = await sql<Candidate>`
      SELECT m.seq, m.document_id, m.unix, m.tab, m.size, m.company, m.category
      FROM ${table} WHERE ${seqIn(db, seqs.slice(i, i + CHECK_CHUNK))} AND ${cond}`.execute(db);
    for (const r of rows) {
      out.push({ ...r, seq: Number(r.seq), unix: Number(r.unix), size: Number(r.size) });
    }
  }
  return out;
}

/** The lowest and highest seq indexed (two queries: each is one step down an index). */
export async function seqSpan(db: Db): Promise<{ min: number; max: number }> {
  const lo = await sql<{ v: number | null }>`SELECT min(seq) AS v FROM search_meta`.execute(db);
  const hi = await sql<{ v: number | null }>`SELECT max(seq) AS v FROM search_meta`.execute(db);
  return { min: Number(lo.rows[0]?.v ?? 0), max: Number(hi.rows[0]?.v ?? 0) };
}
