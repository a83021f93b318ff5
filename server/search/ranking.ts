import type { Db } from '../db/schema';
import { countRows, inTab, page } from './answer-rows';
import type { EngineAnswer, EngineQuery } from './engine';
import type { Answer, Fused, Matcher } from './matcher';
import { checkCandidates, type Candidate } from './scope-sql';
import { compareBy } from './sorts';
import { windowScale } from './windows';

/**
 * Relevance when there are too many matches to check each against the scope (planner.ts).
 *
 * - Up to `rankAll` matches: every match is ranked by the index (cheap: it reads only the
 *   index), and the best are checked against the scope, at least SAMPLE_CHECKS of them, more
 *   until the page is full. The order is exact; the counts are the matches times the share of
 *   checked ones in scope (exact when all were checked).
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
  fused: Fused | null,
): Promise<EngineAnswer> {
  if (fused) return fusedPrefix(q, fused);
  const needed = q.offset + q.limit;
  const matches = await matcher.count();
  const rows: Candidate[] = [];
  const scores = new Map<number, number>();
  let checked = 0;
  let answers = 0;
  // The index keeps only the best `k` while ranking them all; k grows while too few pass.
  for (let k = Math.max(SAMPLE_CHECKS, 2 * needed); checked < matches; k *= 4) {
    const best = await matcher.scored(null, k);
    const part = best.slice(checked);
    for (const r of part) scores.set(r.seq, r.score);
    const found = await checkCandidates(
      db,
      part.map((r) => r.seq),
      q.scope,
      q,
    );
    rows.push(...found);
    answers += found.filter(inTab(q)).length;
    checked += part.length;
    if (answers >= needed || best.length < k) break;
  }
  return prefixAnswer(
    q,
    rows.map((r) => ({ ...r, score: scores.get(r.seq) ?? 0 })),
    matches,
    checked,
  );
}

function prefixAnswer(q: EngineQuery, rows: Answer[], matches: number, checked: number) {
  const all = checked >= matches;
  const counted = countRows(rows, q, all ? 1 : matches / Math.max(1, checked), all);
  const ordered = rows.filter(inTab(q)).sort(compareBy('relevance'));
  return { hits: page(ordered, q), ...counted };
}

/** The same in one statement per k: the index's best k, those in scope, and the matches. */
async function fusedPrefix(q: EngineQuery, fused: Fused): Promise<EngineAnswer> {
  const needed = q.offset + q.limit;
  for (let k = Math.max(SAMPLE_CHECKS, 2 * needed); ; k *= 4) {
    const { rows, matches } = await fused.best(k);
    const checked = Math.min(k, matches);
    if (checked >= matches || rows.filter(inTab(q)).length >= needed) {
      return prefixAnswer(q, rows, matches, checked);
    }
  }
}

export async function windowSearch(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  first: Window,
  fused: Fused | null,
): Promise<EngineAnswer> {
  const needed = q.offset + q.limit;
  const { span } = first;
  for (let width = first.width; ; width *= 4) {
    const lo = span.max - width + 1;
    const rows = fused ? await fused.answers(lo, true) : await rankedWindow(db, q, matcher, lo);
    const answers = rows.filter(inTab(q));
    const whole = lo <= span.min;
    if (answers.length >= needed || whole) {
      const scale = whole ? 1 : windowScale(span, lo);
      const ordered = answers.sort(compareBy('relevance'));
      return { hits: page(ordered, q), ...countRows(rows, q, scale, whole) };
    }
  }
}

/** The window's matches ranked by the index, checked against the scope (any tab). */
async function rankedWindow(
  db: Db,
  q: EngineQuery,
  matcher: Matcher,
  lo: number,
): Promise<Answer[]> {
  const scores = new Map((await matcher.scored(lo)).map((r) => [r.seq, r.score]));
  const rows = await checkCandidates(db, [...scores.keys()], q.scope, q);
  return rows.map((r) => ({ ...r, score: scores.get(r.seq) ?? 0 }));
}
