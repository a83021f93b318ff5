import type { SearchSort } from '../contract/search';
import type { Db } from '../server/db/schema';
import { parseKeywordQuery } from '../contract/keyword-query';
import type { EngineAnswer, EngineQuery, SearchEngine, SearchScope } from '../server/search/engine';

/**
 * Timing of bench/search's queries: each through the engine interface as the API asks it (top
 * 20 of a parsed query in a scope built by search/scope.ts).
 */

export type Stats = { p50: number; p95: number; max: number; samples: number };

export const statsOf = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  return { p50: at(0.5), p95: at(0.95), max: s[s.length - 1], samples: s.length };
};

/**
 * Runs `run` once per term to warm up (unless told not to), then over every term in turn until at least `samples`
 * timings are taken (whole rounds). Answers the timings, each term's last answer and the
 * slowest terms by their own median.
 */
export async function timeTerms<T>(
  terms: string[],
  samples: number,
  run: (word: string) => Promise<T>,
  opts: { warm: boolean } = { warm: true },
): Promise<{ stats: Stats; answers: Map<string, T>; slowest: string }> {
  const answers = new Map<string, T>();
  if (opts.warm) for (const w of terms) answers.set(w, await run(w));
  const times: number[] = [];
  const byTerm = new Map<string, number[]>(terms.map((w) => [w, []]));
  while (times.length < samples) {
    for (const w of terms) {
      const started = performance.now();
      answers.set(w, await run(w));
      const took = performance.now() - started;
      times.push(took);
      byTerm.get(w)!.push(took);
    }
  }
  const slowest = [...byTerm]
    .map(([w, xs]) => [w, statsOf(xs).p50] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([w, p50]) => `${w} ${p50.toFixed(1)} ms`)
    .join(', ');
  return { stats: statsOf(times), answers, slowest };
}

/** The engine query for one word, top 20, as the API builds it for a plain search. */
export const engineQuery = (word: string, scope: SearchScope, sort: SearchSort): EngineQuery => ({
  expr: parseKeywordQuery(word).expr,
  scope,
  sort,
  offset: 0,
  limit: 20,
  tabCounts: false,
  tab: null,
  from: null,
  to: null,
  companies: null,
  tags: null,
  market: null,
});

export const searchWith =
  (engine: SearchEngine, db: Db, scope: SearchScope, sort: SearchSort) =>
  (word: string): Promise<EngineAnswer> =>
    engine.search(db, engineQuery(word, scope, sort));
