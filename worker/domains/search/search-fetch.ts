import {
  MAX_SEARCH_OFFSET,
  type EXCHANGE_COUNTRIES,
  type SearchAnswer,
  type SearchBody,
  type SearchParams,
} from '../../../contract/search';
import { sessionChanged } from '../../api-errors';
import type { Owner } from '../../session';
import { PAGE, readMark, readQuery, writePage, type Ctx, type WriteOutcome } from './search-store';

/**
 * The search calls: a tab's SearchParams as the body of POST /search (or /search/{source}),
 * and one server page of a search fetched and written into the mirror, one request per page
 * and session at a time (concurrent windows over the same page share it).
 */

/** The scope and filters every call of a search carries. */
function scopeOf(p: SearchParams) {
  return {
    ...(p.board_id === null ? {} : { board_id: p.board_id }),
    ...(p.search_type === null ? {} : { search_type: p.search_type }),
  };
}

/** The date range with its unset parts left out. */
function dateRangeOf(p: SearchParams): SearchBody['date_range'] {
  if (p.date_range === null) return undefined;
  const range: NonNullable<SearchBody['date_range']> = {};
  const { durationOption, startDate, endDate } = p.date_range;
  if (durationOption) range.durationOption = durationOption;
  if (startDate) range.startDate = startDate;
  if (endDate) range.endDate = endDate;
  return Object.keys(range).length ? range : undefined;
}

/**
 * POST /search's body for `params`, rows [start_from, start_from + num_docs); type 'category'
 * asks for the category tabs' counts too.
 */
export function searchBody(
  p: SearchParams,
  paging: { num_docs: number; start_from: number },
  type: 'search' | 'category' = 'search',
): SearchBody {
  const dateRange = dateRangeOf(p);
  return {
    type,
    q: p.q.trim(),
    ...paging,
    sort: p.sort,
    spell_correct: p.spell_correct,
    ...scopeOf(p),
    ...(p.channel_id === null ? {} : { channel_id: p.channel_id }),
    ...(p.tab === null ? {} : { tab: p.tab }),
    ...(dateRange ? { date_range: dateRange } : {}),
    ...(p.today ? { today_date_range: true } : {}),
    ...(p.timezone === null ? {} : { timezone: p.timezone }),
    ...(p.filter === null ? {} : { filter: p.filter }),
  };
}

/** POST /search/tags' body: the tag facets of the search's scope and query. */
export const tagsBody = (p: SearchParams, filter: string | undefined) => ({
  type: 'filter' as const,
  sort: 'count' as const,
  ...scopeOf(p),
  ...(p.channel_id === null ? {} : { channel_id: p.channel_id }),
  ...(p.q.trim() ? { q: p.q.trim() } : {}),
  ...(filter?.trim() ? { filter: filter.trim() } : {}),
});

/** POST /search/exchanges' body (002 §7: type filter, num_docs 0, optional Country). */
export const exchangesBody = (
  p: SearchParams,
  country: keyof typeof EXCHANGE_COUNTRIES | null,
) => ({
  type: 'filter' as const,
  num_docs: 0 as const,
  ...scopeOf(p),
  ...(p.q.trim() ? { q: p.q.trim() } : {}),
  ...(country === null ? {} : { filter: { exchanges: { Country: country } } }),
});

/**
 * The request for server page `page`: PAGE rows from page * PAGE. The server pages no deeper
 * than MAX_SEARCH_OFFSET, so the last page starts there and covers the rest (up to 100 rows).
 */
export function pageRequest(page: number) {
  const start = Math.min(page * PAGE, MAX_SEARCH_OFFSET);
  const end = page * PAGE + PAGE;
  const pages: number[] = [];
  for (let p = Math.floor(start / PAGE); p * PAGE < end; p += 1) pages.push(p);
  return { start_from: start, num_docs: end - start, pages };
}

export async function callSearch(
  ctx: Ctx,
  p: SearchParams,
  request: { num_docs: number; start_from: number; type: 'search' | 'category' },
  background: boolean,
): Promise<SearchAnswer> {
  const { type, ...paging } = request;
  const options = {
    body: searchBody(p, paging, type),
    background,
    signal: ctx.signal(),
    variant: ctx.variant(),
  };
  if (p.source === null) return ctx.client.call('search', options);
  return ctx.client.call('searchSource', { ...options, params: { source: p.source } });
}

/**
 * Fetches server page `page` of the search `key` and writes it (one request per page at a
 * time: concurrent callers share it). `gen`: the mirrored answer the page is for (null: any,
 * for a first page or a search not mirrored yet). The first page, and the first page fetched
 * of a search, are asked with type 'category': the answer holds the category tabs' counts.
 */
export function fetchPage(
  ctx: Ctx,
  key: string,
  params: SearchParams,
  page: number,
  options: { gen: string | null; background: boolean },
): Promise<WriteOutcome> {
  return ctx.reads.once(`search.page\u0000${key}\u0000${page}`, async (owner: Owner) => {
    const mark = await readMark(ctx);
    const askedAt = ctx.clock.now();
    const { pages, ...paging } = pageRequest(page);
    const tabs = pages.includes(0) || (await readQuery(ctx, key)) === undefined;
    const type = tabs ? 'category' : 'search';
    const answer = await callSearch(ctx, params, { ...paging, type }, options.background);
    const outcome = await writePage(ctx, owner, {
      key,
      params,
      answer,
      pages,
      tabs,
      gen: options.gen,
      askedAt,
      mark,
    });
    if (outcome === 'dropped' && !owner.guard.holds(await guardValue(ctx, owner))) {
      throw sessionChanged('search.window');
    }
    if (outcome !== 'dropped' && outcome.rows.length)
      ctx.reads.announce('search_results', outcome.rows);
    if (outcome !== 'dropped' && outcome.moved) ctx.reads.announce('search_queries', [key]);
    return outcome;
  });
}

const guardValue = async (ctx: Ctx, owner: Owner) => (await ctx.mirror).get('kv', owner.guard.key);
