import type { Db } from '../db/schema';
import type { EngineQuery } from './engine';
import type { Fused, Matcher } from './matcher';
import { checkCandidates, type Candidate } from './scope-sql';
import { scopeStream, type Cursor, type StreamRow } from './scope-stream';

/**
 * The two walks of a search whose words are common (planner.ts): the scope in publication
 * order, each chunk matched against the index, until the page is full; and the matches in seq
 * order ("updated" sorts), each chunk checked against the scope. Both stop as soon as they hold
 * `needed` answers, so their cost follows the page, not the number of matches.
 */

const FIRST_CHUNK_MAX = 2000;
const CHUNK_MAX = 20_000;
/** A lookup of one document costs about as much as reading this many matches of a range. */
const PROBE_COST = 100;

export const firstChunk = (needed: number, share: number) =>
  Math.min(FIRST_CHUNK_MAX, Math.max(64, Math.ceil((2 * needed) / Math.max(share, 1e-4))));

/** Disjoint, sorted seq intervals already read from the index, and the matches found there. */
class RangeCache {
  private spans: Array<[number, number]> = [];
  readonly matches = new Set<number>();

  /** The parts of [lo, hi] not read yet. */
  gaps(lo: number, hi: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    let from = lo;
    for (const [a, b] of this.spans) {
      if (b < from) continue;
      if (a > hi) break;
      if (a > from) out.push([from, a - 1]);
      from = Math.max(from, b + 1);
    }
    if (from <= hi) out.push([from, hi]);
    return out;
  }

  add(lo: number, hi: number, seqs: number[]) {
    for (const s of seqs) this.matches.add(s);
    const spans = [...this.spans, [lo, hi] as [number, number]].sort((x, y) => x[0] - y[0]);
    const merged: Array<[number, number]> = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s[0] <= last[1] + 1) last[1] = Math.max(last[1], s[1]);
      else merged.push([s[0], s[1]]);
    }
    this.spans = merged;
  }
}

/**
 * The scope newest (or oldest) first, matched chunk by chunk: by reading the index over the
 * chunk's seq range when that range is narrow (documents numbered about in publication order,
 * as ingestion numbers them), else by a lookup per document.
 */
export async function walkByTime(
  db: Db,
  q: EngineQuery,
  matcher: Matcher | null,
  dir: 'desc' | 'asc',
  needed: number,
  share: number,
  fused: Fused | null,
): Promise<{ hits: StreamRow[]; exhausted: boolean }> {
  const cache = new RangeCache();
  const hits: StreamRow[] = [];
  let cursor: Cursor | null = null;
  let chunk = firstChunk(needed, share);
  for (;;) {
    if (fused) {
      // The same chunk read and matched in one statement.
      const step = await fused.timeChunk(dir, cursor, chunk);
      hits.push(...step.hits);
      cursor = step.last ?? cursor;
      if (hits.length >= needed || step.exhausted) return { hits, exhausted: step.exhausted };
      chunk = Math.min(chunk * 4, CHUNK_MAX);
      continue;
    }
    const { rows, exhausted } = await scopeStream(db, q.scope, q, dir, cursor, chunk);
    if (rows.length) {
      const matched = matcher ? await matchRows(matcher, cache, rows, share) : null;
      for (const r of rows) if (!matched || matched.has(r.seq)) hits.push(r);
      const last = rows[rows.length - 1];
      cursor = { unix: last.unix, seq: last.seq };
    }
    if (hits.length >= needed || exhausted) return { hits, exhausted };
    chunk = Math.min(chunk * 4, CHUNK_MAX);
  }
}

async function matchRows(
  matcher: Matcher,
  cache: RangeCache,
  rows: StreamRow[],
  share: number,
): Promise<Set<number>> {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    lo = Math.min(lo, r.seq);
    hi = Math.max(hi, r.seq);
  }
  const gaps = cache.gaps(lo, hi);
  const width = gaps.reduce((n, [a, b]) => n + b - a + 1, 0);
  if (width * Math.max(share, 1e-4) > rows.length * PROBE_COST)
    return matcher.test(rows.map((r) => r.seq));
  for (const [a, b] of gaps) cache.add(a, b, await matcher.range(a, b));
  return cache.matches;
}

/** Matches in seq order, each chunk checked against the scope (the "updated" sorts). */
export async function walkBySeq(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  dir: 'desc' | 'asc',
  needed: number,
  share: number,
  fused: Fused | null,
): Promise<{ hits: Candidate[]; exhausted: boolean }> {
  const hits: Candidate[] = [];
  let after: number | null = null;
  let chunk = firstChunk(needed, share);
  for (;;) {
    // Fused: the chunk of matches and their check in one statement.
    const step: Chunk = fused
      ? await fused.seqChunk(dir, after, chunk)
      : await checkedChunk(db, q, matcher, dir, after, chunk);
    hits.push(...step.hits.sort((a, b) => (dir === 'desc' ? b.seq - a.seq : a.seq - b.seq)));
    if (hits.length >= needed || step.exhausted) return { hits, exhausted: step.exhausted };
    after = step.last;
    chunk = Math.min(chunk * 4, CHUNK_MAX);
  }
}

type Chunk = { hits: Candidate[]; last: number | null; exhausted: boolean };

async function checkedChunk(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  dir: 'desc' | 'asc',
  after: number | null,
  chunk: number,
): Promise<Chunk> {
  const seqs = await matcher.stream(dir, after, chunk);
  const rows = await checkCandidates(db, seqs, q.scope, q);
  return {
    hits: rows.filter((r) => q.tab === null || r.tab === q.tab),
    last: seqs.length ? seqs[seqs.length - 1] : null,
    exhausted: seqs.length < chunk,
  };
}
