import {
  EXCHANGE_COUNTRIES,
  MAX_SEARCH_OFFSET,
  type SearchAnswer,
  type SearchFilter,
  type SearchRequest,
  type SearchResult,
  type TextSpan,
} from '../../contract/search';
import { tabInfos } from '../boards';
import type { Db } from '../db/schema';
import { CARD_COLUMNS, toCard, type CardRow } from '../documents';
import { parseKeywordQuery } from '../../contract/keyword-query';
import {
  isEmptyScope,
  OPEN_FILTER,
  type EngineFilter,
  type EngineHit,
  type SearchEngine,
  type SearchExpr,
  type SearchScope,
} from './engine';
import { searchWindow } from './dates';
import { highlightText, matchTerms } from './highlight';
import { normalizeExpr } from './query';
import { correctSpelling } from './spell';

/**
 * POST /search and /search/{source}: the query (spell-corrected when asked), the engine's page
 * of hits in the scope, and each hit as a result card with its highlights. What the engine is
 * handed is only ever a parsed expression (never the user's text).
 */

/** What answering needs besides the database: the engine and how it splits passages. */
export type SearchKit = {
  engine: SearchEngine;
  /** A document's passages, as the index splits them ([start, end) in its plain text). */
  passagesOf: (text: string) => TextSpan[];
};

// Kept for assistant/retrieve.ts, which imports it from here; defined beside SearchScope.

/** The filter parts of a request (facets, tab, dates) as the engine takes them. */
export function engineFilter(
  body: {
    /** A FeedTabKey: the contract's enum checked it (its zod type is only `string`). */
    tab?: string;
    filter?: SearchFilter;
    today_date_range?: boolean;
    date_range?: SearchRequest['date_range'];
    timezone?: string;
  },
  now: number,
): EngineFilter {
  const { from, to } = searchWindow(body, now);
  const country = body.filter?.exchanges?.Country;
  return {
    tab: (body.tab ?? null) as EngineFilter['tab'],
    from,
    to,
    companies: body.filter?.companies?.length ? body.filter.companies : null,
    tags: body.filter?.tags?.length ? body.filter.tags : null,
    market: country ? EXCHANGE_COUNTRIES[country] : null,
  };
}

/**
 * The query's expression as the engines run it (query.ts `normalizeExpr`: repeats read once,
 * at most MAX_QUERY_TERMS words), so highlights mark what was searched: null with `usable`
 * true when the query is empty (every document of the scope); `usable` false when it had text
 * but nothing a document could match (only operators or punctuation): that answers no results.
 */
export function queryExpr(q: string): { expr: SearchExpr | null; usable: boolean } {
  if (!q.trim()) return { expr: null, usable: true };
  const expr = normalizeExpr(parseKeywordQuery(q).expr);
  return { expr, usable: expr !== null };
}

/** Cards of these documents in the given order; one the viewer may not see is left out. */
async function cardRows(db: Db, viewerId: string, hits: EngineHit[]): Promise<CardRow[]> {
  if (hits.length === 0) return [];
  const rows = (await db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select([...CARD_COLUMNS])
    .where(
      'd.id',
      'in',
      hits.map((h) => h.id),
    )
    // The engine guards this already; a second lock on the same door costs one clause.
    .where((eb) =>
      eb.and([
        eb.or([eb('d.owner_user_id', 'is', null), eb('d.owner_user_id', '=', viewerId)]),
        eb.or([eb('s.owner_user_id', 'is', null), eb('s.owner_user_id', '=', viewerId)]),
      ]),
    )
    .execute()) as CardRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return hits.map((h) => byId.get(h.id)).filter((r): r is CardRow => r !== undefined);
}

export async function searchAnswer(
  db: Db,
  kit: SearchKit,
  scope: SearchScope,
  body: SearchRequest,
  now: number,
): Promise<SearchAnswer> {
  const filter = engineFilter(body, now);
  const corrected =
    body.spell_correct && body.q.trim() && !isEmptyScope(scope)
      ? await correctSpelling(db, kit.engine, body.q, {
          scope,
          visible: async (word) => {
            const probe = await kit.engine.search(db, {
              ...OPEN_FILTER,
              expr: { type: 'term', words: [word] },
              scope,
              sort: 'latest',
              offset: 0,
              limit: 1,
              tabCounts: false,
            });
            return probe.hits.length > 0;
          },
        })
      : null;
  const searched = corrected ?? body.q;
  const { expr, usable } = queryExpr(searched);
  const tabCounts = body.type === 'category';
  const answer =
    usable && !isEmptyScope(scope)
      ? await kit.engine.search(db, {
          ...filter,
          expr,
          scope,
          sort: body.sort,
          offset: body.start_from,
          limit: body.num_docs,
          tabCounts,
        })
      : { hits: [], total: 0, exact: true, tabs: tabCounts ? {} : null };
  const terms = matchTerms(expr);
  const scores = new Map(answer.hits.map((h) => [h.id, h.score]));
  const results: SearchResult[] = (await cardRows(db, scope.viewerId, answer.hits)).map((row) => ({
    ...toCard(row),
    document_id: row.id,
    title_label: row.title,
    source_label: row.label,
    ...highlightText(row.plain_text, terms, terms.length ? kit.passagesOf(row.plain_text) : []),
    score: scores.get(row.id) ?? null,
  }));
  const end = body.start_from + answer.hits.length;
  return {
    results,
    count: answer.total,
    count_exact: answer.exact,
    // The next page starts at `end`, which start_from must still be able to reach.
    has_more: body.num_docs > 0 && end < answer.total && end <= MAX_SEARCH_OFFSET,
    category_tabs: answer.tabs
      ? tabInfos(new Map(Object.entries(answer.tabs).map(([k, n]) => [k, n ?? 0])))
      : [],
    query_params: {
      q: body.q,
      corrected_q: corrected,
      searched_q: searched,
      sort: body.sort,
      start_from: body.start_from,
      num_docs: body.num_docs,
    },
  };
}
