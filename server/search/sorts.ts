import type { SearchSort } from '../../contract/search';
import type { Candidate } from './scope-sql';

/**
 * The orders of 002 §9 over answers read in full (planner.ts), ties broken newest first and then
 * by seq, so that every page of one search continues the one before. "Updated" is when the
 * document was stored (or last changed) here: its seq. No document has attachments yet, so
 * "with" and "without attachments" hold all documents alike, newest first.
 */

type Sortable = Candidate & { score: number | null };
type Compare = (a: Sortable, b: Sortable) => number;

const newest: Compare = (a, b) => b.unix - a.unix || b.seq - a.seq;
const oldest: Compare = (a, b) => a.unix - b.unix || a.seq - b.seq;

/** Names compare without case; documents without one come last either way. */
const byName =
  (key: 'company' | 'category', dir: 1 | -1): Compare =>
  (a, b) => {
    const x = a[key]?.toLowerCase() ?? null;
    const y = b[key]?.toLowerCase() ?? null;
    if (x === y) return newest(a, b);
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * dir;
  };

const ORDERS: Record<SearchSort, Compare> = {
  relevance: (a, b) => (b.score ?? 0) - (a.score ?? 0) || newest(a, b),
  latest: newest,
  oldest,
  updated_latest: (a, b) => b.seq - a.seq,
  updated_oldest: (a, b) => a.seq - b.seq,
  size_largest: (a, b) => b.size - a.size || newest(a, b),
  size_smallest: (a, b) => a.size - b.size || newest(a, b),
  attachments_with: newest,
  attachments_without: newest,
  company_desc: byName('company', -1),
  company_asc: byName('company', 1),
  category_desc: byName('category', -1),
  category_asc: byName('category', 1),
};

export const compareBy = (sort: SearchSort): Compare => ORDERS[sort];
