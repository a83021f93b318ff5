import type { Db } from '../db/schema';
import type { EngineFilter, SearchExpr, SearchScope } from './engine';
import type { Candidate } from './scope-sql';
import type { Cursor, StreamRow } from './scope-stream';

/** A match and its relevance (higher is better). */
export type Scored = { seq: number; score: number };

/**
 * What an engine's full-text index answers for one query's expression: the documents (by seq)
 * that match it, read in the few ways the planner (planner.ts) combines. Seq ranges are
 * inclusive; null leaves a side open. An expression of null matches every document.
 */
export interface Matcher {
  /** Every match with a seq in [lo, hi]. */
  range(lo: number | null, hi: number | null): Promise<number[]>;
  /** Matches with a seq of at least `lo` and their relevance, best first, the best `limit`. */
  scored(lo: number | null, limit?: number): Promise<Scored[]>;
  /** How many documents match. */
  count(): Promise<number>;
  /** Matches in seq order after `after` (exclusive), at most `limit`. */
  stream(dir: 'desc' | 'asc', after: number | null, limit: number): Promise<number[]>;
  /** Which of these documents match (one lookup each: for a few scattered documents). */
  test(seqs: number[]): Promise<Set<number>>;
}

/** An answer (a match in scope, filters passed) as the planner sorts and counts it. */
export type Answer = Candidate & { score: number | null };

/**
 * What an engine can answer in one statement, index and scope together (PostgreSQL: its own
 * planner then picks the index, e.g. the time index read backwards for a common word). The
 * planner's plans use these when an engine has them, with the same results as reading the
 * index and checking the scope in separate steps; SQLite has none (FTS5 is cheapest alone).
 */
export interface Fused {
  /** Every answer (any tab) with a seq of at least `lo`, with its relevance when `scored`. */
  answers(lo: number | null, scored: boolean): Promise<Answer[]>;
  /**
   * The best `k` matches of the whole index (relevance, then seq, highest first): those that
   * are answers (any tab), and how many documents match in all.
   */
  best(k: number): Promise<{ rows: Answer[]; matches: number }>;
  /**
   * One chunk of a walk in publication order (walks.ts): the next `limit` documents of the
   * scope in the tab after `cursor`, those of them that match, and where the chunk ended.
   */
  timeChunk(
    dir: 'desc' | 'asc',
    cursor: Cursor | null,
    limit: number,
  ): Promise<{ hits: StreamRow[]; last: Cursor | null; exhausted: boolean }>;
  /**
   * One chunk of a walk in seq order (walks.ts): the next `limit` matches after `after`, those
   * of them that are answers in the tab, and the chunk's last match.
   */
  seqChunk(
    dir: 'desc' | 'asc',
    after: number | null,
    limit: number,
  ): Promise<{ hits: Candidate[]; last: number | null; exhausted: boolean }>;
}

/** An engine's fused plans for one query's words, scope and filters. */
export type FusedOf = (
  db: Db,
  q: EngineFilter & { expr: SearchExpr | null; scope: SearchScope },
) => Fused;
