import { MARKETS } from '../../contract/documents';
import { EXCHANGE_COUNTRIES, type FacetValue } from '../../contract/search';
import type { Db } from '../db/schema';
import { queryExpr, type SearchKit } from './answer';
import { isEmptyScope, OPEN_FILTER as OPEN, type SearchScope } from './engine';
import { foldWord } from './highlight';

/**
 * POST /search/tags and /search/exchanges (002 §7): facet values over the documents in scope
 * that match the query (all of them without one). Tags are the user's own tags (the tags
 * domain's user_tags on their documents, the bookmark left out); filtering by them is
 * scope-sql.ts `filterCond`.
 */

/** Values answered at most. */
export const MAX_FACETS = 100;
/** Values read from the engine before a name filter narrows them. */
const FACET_READ = 1000;

const byName = (a: FacetValue, b: FacetValue) =>
  a.key.localeCompare(b.key, 'en', { sensitivity: 'base' }) || (a.key < b.key ? -1 : 1);
const byCount = (a: FacetValue, b: FacetValue) => b.count - a.count || byName(a, b);

export async function tagFacets(
  db: Db,
  kit: SearchKit,
  scope: SearchScope,
  body: { q?: string; filter?: string; sort: 'count' | 'name' },
): Promise<FacetValue[]> {
  const { expr, usable } = queryExpr(body.q ?? '');
  if (!usable || isEmptyScope(scope)) return [];
  const values = await kit.engine.facet(db, { ...OPEN, expr, scope }, 'tags', FACET_READ);
  // Contains, in any case and with or without accents.
  const needle = foldWord(body.filter?.trim() ?? '');
  return values
    .filter((v) => !needle || foldWord(v.key).includes(needle))
    .sort(body.sort === 'name' ? byName : byCount)
    .slice(0, MAX_FACETS);
}

/** Companies filing on exchanges in scope (one market with a country), most filings first. */
export async function exchangeFacets(
  db: Db,
  kit: SearchKit,
  scope: SearchScope,
  body: { q?: string; country: keyof typeof EXCHANGE_COUNTRIES | null },
): Promise<FacetValue[]> {
  const { expr, usable } = queryExpr(body.q ?? '');
  if (!usable || isEmptyScope(scope)) return [];
  const markets = body.country ? [EXCHANGE_COUNTRIES[body.country]] : MARKETS;
  // One company may file on several markets: its counts add up under its first spelling.
  const counts = new Map<string, FacetValue>();
  for (const market of markets) {
    const values = await kit.engine.facet(
      db,
      { ...OPEN, market, expr, scope },
      'companies',
      MAX_FACETS,
    );
    for (const v of values) {
      const known = counts.get(foldWord(v.key));
      if (known) known.count += v.count;
      else counts.set(foldWord(v.key), { key: v.key, count: v.count });
    }
  }
  return [...counts.values()].sort(byCount).slice(0, MAX_FACETS);
}
