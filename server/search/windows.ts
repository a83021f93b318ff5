import type { Db } from '../db/schema';
import { seqSpan } from './scope-sql';

/**
 * Windows of the newest documents indexed (by seq): where the planner ranks the matches of
 * very common words and samples the matches it estimates counts from.
 */

/** The indexed seqs, and the width of the newest window holding about `sample` matches. */
export async function windowOf(db: Db, share: number, total: number, sample: number) {
  const span = await seqSpan(db);
  const width = Math.ceil((sample / Math.max(share, 1e-6)) * ((span.max - span.min + 1) / total));
  return { span, width };
}

/**
 * Documents indexed per document in the window [lo, max]: seqs are handed out about evenly
 * (feed entries share the sequence), so the window's share of the seq range stands for its
 * share of the documents (counting them would cost as much as the window).
 */
export const windowScale = (span: { min: number; max: number }, lo: number) =>
  (span.max - span.min + 1) / Math.max(1, span.max - lo + 1);
