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
