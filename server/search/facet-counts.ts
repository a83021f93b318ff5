import { BOOKMARK_TAG_ID } from '../../contract/tags';
import type { Db } from '../db/schema';
import type { EngineFilter, SearchExpr, SearchScope } from './engine';
import type { Fused, FusedOf, Matcher } from './matcher';
import { planOf } from './planner';
import { windowOf, windowScale } from './windows';
import { checkCandidates, type Candidate } from './scope-sql';

/**
 * Top values of a facet (the viewer's own tags, companies) over a search's answers: counted over every answer
 * when there are at most FACET_EXACT, else over the newest window holding about FACET_SAMPLE
 * matches and scaled to the whole index (an estimate, like the planner's counts). Names group
 * without case; the first spelling met is the one shown.
 */

const FACET_EXACT = 20_000;
const FACET_SAMPLE = 5000;
const TAG_CHUNK = 500;

type FacetQuery = EngineFilter & { expr: SearchExpr | null; scope: SearchScope };

async function answers(
  db: Db,
  q: FacetQuery,
  matcher: Matcher,
  fused: Fused | null,
): Promise<{ rows: Candidate[]; scale: number }> {
  const plan = await planOf(db, q);
  if (!plan) return { rows: [], scale: 1 };
  // Answers from `lo` on: in one statement where the engine can (fused), else matched, then checked.
  const from = async (lo: number | null) =>
    fused
      ? fused.answers(lo, false)
      : checkCandidates(db, await matcher.range(lo, null), q.scope, q);
  if (plan.most <= FACET_EXACT) return { rows: await from(null), scale: 1 };
  const { span, width } = await windowOf(db, plan.share.mid, plan.total, FACET_SAMPLE);
  const lo = span.max - width + 1;
  const rows = await from(lo);
  const scale = lo <= span.min ? 1 : windowScale(span, lo);
  return { rows, scale };
}

export async function facetOf(
  db: Db,
  q: FacetQuery,
  facet: 'tags' | 'companies',
  limit: number,
  matcherOf: (db: Db, expr: SearchExpr | null, scope: SearchScope) => Matcher,
  fusedOf?: FusedOf,
): Promise<Array<{ key: string; count: number }>> {
  const fused = fusedOf ? fusedOf(db, q) : null;
  const { rows: all, scale } = await answers(db, q, matcherOf(db, q.expr, q.scope), fused);
  const rows = all.filter((r) => q.tab === null || r.tab === q.tab);
  const groups = new Map<string, { key: string; count: number }>();
  const add = (name: string | null) => {
    const key = name?.trim();
    if (!key) return;
    const g = groups.get(key.toLowerCase());
    if (g) g.count++;
    else groups.set(key.toLowerCase(), { key, count: 1 });
  };
  if (facet === 'companies') {
    for (const r of rows) add(r.company);
  } else {
    // The viewer's own tags on the answers (not the bookmark, which is not a tag to them).
    const ids = rows.map((r) => r.document_id);
    for (let i = 0; i < ids.length; i += TAG_CHUNK) {
      const tags = await db
        .selectFrom('document_tags as dt')
        .innerJoin('user_tags as ut', (j) =>
          j.onRef('ut.user_id', '=', 'dt.user_id').onRef('ut.id', '=', 'dt.tag_id'),
        )
        .select('ut.name as tag')
        .where('dt.user_id', '=', q.scope.viewerId)
        .where('dt.tag_id', '!=', BOOKMARK_TAG_ID)
        .where('dt.document_id', 'in', ids.slice(i, i + TAG_CHUNK))
        .execute();
      for (const t of tags) add(t.tag);
    }
  }
  return [...groups.values()]
    .map((g) => ({ key: g.key, count: Math.max(1, Math.round(g.count * scale)) }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, limit));
}
