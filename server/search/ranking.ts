import type { Db } from '../db/schema';
import { countRows, inTab, page } from './answer-rows';
import type { EngineAnswer, EngineQuery } from './engine';
import type { Matcher } from './matcher';
import { checkCandidates, type Candidate } from './scope-sql';
import { compareBy } from './sorts';
import { windowScale } from './windows';

/**
 * Relevance when there are too many matches to check each against the scope (planner.ts).
 *
 * - Up to `rankAll` matches: every match is ranked by the index (cheap: it reads only the
 *   index), then checked against the scope best first, a chunk at a time, until the page is
 *   full and at least SAMPLE_CHECKS were checked. The order is exact; the counts are the
 *   matches times the share of checked ones in scope (exact when all were checked).
 * - More: only the newest window of matches is ranked (the index's statistics for a word in
 *   half the documents cost about as much as ranking 20 000 of them; ranking all of them, a
 *   quarter of a second on a million documents): `exact` is false, a better match may sit
 *   outside the window. The window widens until it holds the page.
 */

/** At least this many candidates are checked before counts are estimated from them. */
const SAMPLE_CHECKS = 500;

type Window = { span: { min: number; max: number }; width: number };

export async function rankedPrefix(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
): Promise<EngineAnswer> {
  const needed = q.offset + q.limit;
  const ranked = await matcher.scored(null);
  const order = ranked.map((r) => r.seq);
  const rows: Candidate[] = [];
  let checked = 0;
  let answers = 0;
  for (let chunk = Math.max(SAMPLE_CHECKS, 2 * needed); checked < order.length; chunk *= 4) {
    const part = order.slice(checked, checked + chunk);
    const found = await checkCandidates(db, part, q.scope, q);
    rows.push(...found);
    answers += found.filter(inTab(q)).length;
    checked += part.length;
    if (answers >= needed) break;
  }
  const all = checked === order.length;
  const counted = countRows(rows, q, all ? 1 : order.length / checked, all);
  const scores = new Map(ranked.slice(0, checked).map((r) => [r.seq, r.score]));
  const ordered = rows
    .filter(inTab(q))
    .map((r) => ({ ...r, score: scores.get(r.seq) ?? 0 }))
    .sort(compareBy('relevance'));
  return { hits: page(ordered, q), ...counted };
}

export async function windowSearch(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  first: Window,
): Promise<EngineAnswer> {
  const needed = q.offset + q.limit;
  const { span } = first;
  for (let width = first.width; ; width *= 4) {
    const lo = span.max - width + 1;
    const ranked = await matcher.scored(lo);
    const scores = new Map(ranked.map((r) => [r.seq, r.score]));
    const rows = await checkCandidates(db, [...scores.keys()], q.scope, q);
    const answers = rows.filter(inTab(q));
    const whole = lo <= span.min;
    if (answers.length >= needed || whole) {
      const scale = whole ? 1 : windowScale(span, lo);
      const ordered = answers
        .map((r) => ({ ...r, score: scores.get(r.seq) ?? 0 }))
        .sort(compareBy('relevance'));
      return { hits: page(ordered, q), ...countRows(rows, q, scale, whole) };
    }
  }
}
