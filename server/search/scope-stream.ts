import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/schema';
import type { EngineFilter, SearchScope } from './engine';
import { filterCond, guard, tabCond } from './scope-sql';

/**
 * The scope's documents in publication order (newest or oldest first, then by seq), a chunk at
 * a time after a keyset cursor: what a newest-first search walks when its words are common.
 * Each part of the scope reads its own index in that order (a feed its entries, a source its
 * documents, the public corpus and a long source list the engine's table by time) and the parts
 * are merged by one UNION ALL ... ORDER BY ... LIMIT, so a chunk costs about its own size.
 */

export type StreamRow = { seq: number; unix: number; document_id: string; tab: string };
export type Cursor = { unix: number; seq: number };

/** Sources up to this many are read one index range each; more are filtered on a time walk. */
const SOURCES_PER_ARM = 8;

type Dir = 'desc' | 'asc';

const keyset = (unix: RawBuilder<unknown>, seq: RawBuilder<unknown>, dir: Dir, c: Cursor | null) =>
  c === null
    ? sql`1 = 1`
    : dir === 'desc'
      ? sql`${unix} <= ${c.unix} AND (${unix} < ${c.unix} OR ${seq} < ${c.seq})`
      : sql`${unix} >= ${c.unix} AND (${unix} > ${c.unix} OR ${seq} > ${c.seq})`;

const order = (unix: RawBuilder<unknown>, dir: Dir) =>
  dir === 'desc' ? sql`${unix} DESC, m.seq DESC` : sql`${unix} ASC, m.seq ASC`;

/**
 * A chunk of the scope as one SQL query: rows (seq, unix, document_id, tab, and `hit` when
 * given: an expression over `m` computed for each row) in order, at most `limit`, duplicates
 * kept; null when the scope has no part.
 */
export function streamQuery(
  scope: SearchScope,
  f: EngineFilter,
  dir: Dir,
  cursor: Cursor | null,
  limit: number,
  hit?: RawBuilder<unknown>,
): RawBuilder<StreamRow & { hit?: boolean }> | null {
  const checks = sql`${guard(scope.viewerId)} AND ${filterCond(f, scope.viewerId)} AND ${tabCond(f)}`;
  const columns = sql`m.seq, m.unix, m.document_id, m.tab${hit ? sql`, ${hit} AS hit` : sql``}`;
  const arms: RawBuilder<unknown>[] = [];
  const fromMeta = (where: RawBuilder<unknown>) => {
    const unix = sql.ref('m.unix');
    arms.push(sql`SELECT ${columns} FROM search_meta m
      WHERE ${where} AND ${keyset(unix, sql.ref('m.seq'), dir, cursor)} AND ${checks}
      ORDER BY ${order(unix, dir)} LIMIT ${limit}`);
  };
  for (const feed of scope.feeds) {
    const unix = sql.ref('fe.unix');
    // The feed's own tab column lets a tab search read the feed's tab index.
    const tab = f.tab === null ? sql`1 = 1` : sql`fe.tab = ${f.tab}`;
    arms.push(sql`SELECT ${columns} FROM feed_entries fe
      JOIN search_meta m ON m.document_id = fe.document_id
      WHERE fe.feed_id = ${feed} AND fe.removed = 0 AND ${tab}
        AND ${keyset(unix, sql.ref('m.seq'), dir, cursor)} AND ${checks}
      ORDER BY ${order(unix, dir)} LIMIT ${limit}`);
  }
  const few = scope.sourceIds.length <= SOURCES_PER_ARM;
  if (few) for (const id of scope.sourceIds) fromMeta(sql`m.source_id = ${id}`);
  const wide = [
    ...(scope.publicCorpus ? [sql`m.public = 1`] : []),
    // `|| ''` keeps the planner off the source index: this arm walks by time, checking each.
    ...(!few ? [sql`m.source_id || '' IN (${sql.join(scope.sourceIds)})`] : []),
  ];
  if (wide.length) fromMeta(sql`(${sql.join(wide, sql` OR `)})`);
  if (scope.ownedBy) fromMeta(sql`m.owner_user_id = ${scope.ownedBy}`);
  if (arms.length === 0) return null;
  const union = sql.join(
    arms.map((arm, i) => sql`SELECT * FROM (${arm}) ${sql.raw(`a${i}`)}`),
    sql` UNION ALL `,
  );
  return sql`${union} ORDER BY ${streamOrder(dir)} LIMIT ${limit}`;
}

/** The order of a stream's rows (the columns of `streamQuery`). */
export const streamOrder = (dir: Dir) =>
  dir === 'desc' ? sql`unix DESC, seq DESC` : sql`unix ASC, seq ASC`;

/** Rows as read, each document once (a followed source's document in a board too). */
export function distinctRows(rows: StreamRow[]): StreamRow[] {
  const seen = new Set<number>();
  const out: StreamRow[] = [];
  for (const r of rows) {
    const seq = Number(r.seq);
    if (seen.has(seq)) continue;
    seen.add(seq);
    out.push({ seq, unix: Number(r.unix), document_id: r.document_id, tab: r.tab });
  }
  return out;
}

export async function scopeStream(
  db: Db,
  scope: SearchScope,
  f: EngineFilter,
  dir: Dir,
  cursor: Cursor | null,
  limit: number,
): Promise<{ rows: StreamRow[]; exhausted: boolean }> {
  const query = streamQuery(scope, f, dir, cursor, limit);
  if (!query) return { rows: [], exhausted: true };
  const { rows } = await query.execute(db);
  return { rows: distinctRows(rows), exhausted: rows.length < limit };
}
