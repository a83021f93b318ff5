import type { SearchSort } from '../../contract/search';
import type { Db } from '../db/schema';
import { countRows, emptyAnswer, inTab, page, type Counted } from './answer-rows';
import {
  isEmptyScope,
  type EngineAnswer,
  type EngineQuery,
  type SearchExpr,
  type SearchScope,
} from './engine';
import { COUNTER_ALL, COUNTER_PUBLIC, counterOfOwner, counterOfSource } from './indexing';
import type { Answer, Fused, FusedOf, Matcher } from './matcher';
import { exprWords, shareBounds, type Share } from './query';
import { rankedPrefix, windowSearch } from './ranking';
import { checkCandidates } from './scope-sql';
import { compareBy } from './sorts';
import { stemKey } from './stems';
import { countsOf } from './vocabulary';
import { walkBySeq, walkByTime } from './walks';
import { windowOf, windowScale } from './windows';

/**
 * How a search is answered, the same on both engines, by how many documents its words can
 * match (at most `most`, from the vocabulary's counts: query.ts `shareBounds`). Checking a
 * match against the scope costs a lookup (about 1 µs on SQLite, 4 µs through a feed's
 * entries), so the plan keeps those lookups near the page's size:
 *
 * - Few possible matches (`exactMax` lookups' worth): every match is checked; counts, tab
 *   counts and every order are exact.
 * - Relevance: the index ranks the matches and only the best are checked (ranking.ts).
 * - Newest or oldest first: the scope is walked in that order and matched chunk by chunk until
 *   the page is full; "updated" walks the matches in seq order and checks them (walks.ts).
 *   Counts come from the newest window holding about `sample` matches: the answers there per
 *   document indexed there, times the documents indexed (`exact: false`), unless the walk saw
 *   the whole scope.
 * - Size, company and category sorts check every match (exact; slower for common words).
 * - No words: every document of the scope, newest first.
 */

/**
 * The planner's thresholds: `exactMax` is what an exact answer may cost (in the units below,
 * about microseconds on SQLite), `rankAll` the most matches ranked all together, `sample` the
 * matches a window for estimated counts holds. The acceptance suites set them to zero to walk
 * and sample a small corpus the way a large one is.
 */
export const plannerTuning = { exactMax: 5000, rankAll: 20_000, sample: 500 };

/**
 * What a step costs per document (measured on SQLite, 1M documents): checking a candidate
 * against the scope (a feed part looks up the feed's entries), reading the scope in time
 * order, ranking a match in the index, reading a match from the index.
 */
const costs = (scope: SearchScope) => {
  const feeds = scope.feeds.length > 0;
  return { check: feeds ? 4 : 1.2, walk: feeds ? 3 : 0.6, rank: 1.4, read: 0.3 };
};

export type Plan = {
  /** Documents indexed. */
  total: number;
  share: Share;
  /** At most this many documents are in the scope. */
  scopeMax: number;
  /** At most this many answers (before filters). */
  most: number;
};

const scopeCounterKeys = (s: SearchScope) => [
  ...s.sourceIds.map(counterOfSource),
  ...(s.ownedBy ? [counterOfOwner(s.ownedBy)] : []),
  ...(s.publicCorpus ? [COUNTER_PUBLIC] : []),
];

/** What the planner decides by, or null when nothing can match. */
export async function planOf(db: Db, q: Pick<EngineQuery, 'expr' | 'scope'>): Promise<Plan | null> {
  if (isEmptyScope(q.scope)) return null;
  // Documents are counted per stem (stems.ts), the stems a query matches by (query.ts).
  const stems = exprWords(q.expr).map(stemKey);
  const keys = [...stems, COUNTER_ALL, COUNTER_PUBLIC, ...scopeCounterKeys(q.scope)];
  const counts = await countsOf(db, keys);
  const total = counts.get(COUNTER_ALL) ?? 0;
  if (total === 0) return null;
  // Words are counted over the public corpus (vocabulary.ts): shares are of it.
  const counted = counts.get(COUNTER_PUBLIC) ?? 0;
  const share: Share =
    q.expr && counted > 0
      ? shareBounds(q.expr, (s) => counts.get(stemKey(s)) ?? 0, counted)
      : { lo: 0, hi: 1, mid: 1 };
  // Without feeds, the scope's own counters bound it (overlaps make them an upper bound).
  const parts = scopeCounterKeys(q.scope).reduce((n, k) => n + (counts.get(k) ?? 0), 0);
  const scopeMax = q.scope.feeds.length ? total : Math.min(total, parts);
  return { total, share, scopeMax, most: Math.min(share.hi * total, scopeMax) };
}

export async function plannedSearch(
  db: Db,
  q: EngineQuery,
  matcherOf: (db: Db, expr: SearchExpr | null, scope: SearchScope) => Matcher,
  fusedOf?: FusedOf,
): Promise<EngineAnswer> {
  const plan = await planOf(db, q);
  if (!plan) return emptyAnswer(q);
  const { total, share, scopeMax, most } = plan;
  const sort: SearchSort = q.sort === 'relevance' && !q.expr ? 'latest' : q.sort;
  const matcher = matcherOf(db, q.expr, q.scope);
  // The same plans in one statement each where the engine has them (PostgreSQL).
  const fused = fusedOf ? fusedOf(db, q) : null;
  const needed = q.offset + q.limit;
  const cost = costs(q.scope);
  if (/^(size|company|category)_/.test(sort)) return exactSearch(db, q, matcher, sort, fused);
  if (sort === 'relevance') {
    if (most * (cost.rank + cost.check) <= plannerTuning.exactMax) {
      return exactSearch(db, q, matcher, sort, fused);
    }
    if (most <= plannerTuning.rankAll) return rankedPrefix(db, q, matcher, fused);
    const window = await windowOf(db, share.mid, total, plannerTuning.sample);
    return windowSearch(db, q, matcher, window, fused);
  }
  // The share of scope documents expected to match: how long a walk runs.
  const expected = Math.min(1, share.mid * Math.max(scopeMax / total, 0.01));
  const walked = Math.min(scopeMax, needed / Math.max(expected, 1e-6));
  const walkCost = walked * cost.walk + plannerTuning.sample * cost.check;
  const exactCost = most * (cost.read + cost.check);
  if (exactCost <= Math.max(plannerTuning.exactMax, walkCost)) {
    return exactSearch(db, q, matcher, sort, fused);
  }
  const counts = () => sampleCounts(db, q, matcher, share.mid, total, fused);
  if (sort === 'updated_latest' || sort === 'updated_oldest') {
    const dir = sort === 'updated_latest' ? 'desc' : 'asc';
    const walk = await walkBySeq(db, q, matcher, dir, needed, expected, fused);
    const counted = walk.exhausted ? countRows(walk.hits, q, 1, true) : await counts();
    return { hits: page(walk.hits, q), ...counted };
  }
  // latest, oldest, and the attachment sorts: no document has attachments yet, so with and
  // without attachments both hold every document alike, newest first.
  const dir = sort === 'oldest' ? 'asc' : 'desc';
  const walk = await walkByTime(db, q, q.expr ? matcher : null, dir, needed, expected, fused);
  // A walk to the end saw every answer in the tab: exact, unless other tabs are counted too.
  const counted =
    walk.exhausted && (q.tab === null || !q.tabCounts)
      ? countRows(walk.hits, q, 1, true)
      : await counts();
  return { hits: page(walk.hits, q), ...counted };
}

async function exactSearch(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  sort: SearchSort,
  fused: Fused | null,
): Promise<EngineAnswer> {
  const rows = fused
    ? await fused.answers(null, sort === 'relevance')
    : await checkedMatches(db, q, matcher, sort === 'relevance');
  const ordered = rows.filter(inTab(q)).sort(compareBy(sort));
  return { hits: page(ordered, q), ...countRows(rows, q, 1, true) };
}

/** Every match, ranked when asked, checked against the scope (any tab). */
async function checkedMatches(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  ranked: boolean,
): Promise<Answer[]> {
  const scores = ranked ? new Map((await matcher.scored(null)).map((r) => [r.seq, r.score])) : null;
  const seqs = scores ? [...scores.keys()] : await matcher.range(null, null);
  const rows = await checkCandidates(db, seqs, q.scope, q);
  return rows.map((r) => ({ ...r, score: scores ? (scores.get(r.seq) ?? 0) : null }));
}

/** Counts estimated from the newest window holding about `sample` matches (exact if all). */
async function sampleCounts(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  share: number,
  total: number,
  fused: Fused | null,
): Promise<Counted> {
  const { span, width } = await windowOf(db, share, total, plannerTuning.sample);
  const lo = span.max - width + 1;
  const rows = fused
    ? await fused.answers(lo, false)
    : await checkCandidates(db, await matcher.range(lo, null), q.scope, q);
  if (lo <= span.min) return countRows(rows, q, 1, true);
  return countRows(rows, q, windowScale(span, lo), false);
}
