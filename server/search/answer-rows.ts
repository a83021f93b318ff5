import type { FeedTabKey } from '../../contract/documents';
import type { EngineAnswer, EngineHit, EngineQuery } from './engine';
import type { Candidate } from './scope-sql';

/** Counting and paging answers, as every plan of planner.ts does it. */

export type Counted = {
  total: number;
  tabs: Partial<Record<FeedTabKey, number>> | null;
  exact: boolean;
};

export const emptyAnswer = (q: EngineQuery): EngineAnswer => ({
  hits: [],
  total: 0,
  exact: true,
  tabs: q.tabCounts ? {} : null,
});

export const inTab = (q: EngineQuery) => (r: Pick<Candidate, 'tab'>) =>
  q.tab === null || r.tab === q.tab;

/**
 * Counts of answers (`rows` hold every tab; the total is the asked tab's), scaled when the rows
 * are a sample of the answers.
 */
export function countRows(
  rows: Array<Pick<Candidate, 'tab'>>,
  q: EngineQuery,
  scale: number,
  exact: boolean,
): Counted {
  const tabs: Partial<Record<FeedTabKey, number>> = {};
  let total = 0;
  for (const r of rows) {
    if (inTab(q)(r)) total++;
    const tab = r.tab as FeedTabKey;
    tabs[tab] = (tabs[tab] ?? 0) + 1;
  }
  if (scale !== 1) {
    for (const k of Object.keys(tabs) as FeedTabKey[]) tabs[k] = Math.round(tabs[k]! * scale);
  }
  return { total: Math.round(total * scale), tabs: q.tabCounts ? tabs : null, exact };
}

/** The asked page of answers in order. */
export const page = (
  rows: Array<{ document_id: string; score?: number | null }>,
  q: EngineQuery,
): EngineHit[] =>
  rows
    .slice(q.offset, q.offset + q.limit)
    .map((r) => ({ id: r.document_id, score: r.score ?? null }));
