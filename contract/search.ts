import { z } from 'zod';
import { DateRange } from './date-range';
import { defineDomain, endpoint, id, LIMITS, op, text } from './define';
import { CategoryTabInfo, FeedTabKey, ResultCard } from './documents';

/**
 * Search (002 §2 "Search", §3 "Search response", §7, §9 sort options; 001 §7 category tabs).
 * One engine on SQLite FTS5 or PostgreSQL full-text answers every call; the query language is
 * the custom feeds' boolean keyword language (words, "phrases", AND OR NOT + - |, parentheses),
 * parsed by us and never passed through to the engine.
 */

/** A query longer than this is refused with 400 (what fits is always answered). */
export const MAX_QUERY_CHARS = 5000;
/** Results per page at most; `start_from` at most this deep (deeper: refine the query). */
export const MAX_SEARCH_PAGE = 100;
export const MAX_SEARCH_OFFSET = 10_000;

/** 002 §9 sort options, in the spec's order. "updated" is when the document last changed here. */
export const SEARCH_SORTS = [
  'relevance',
  'latest',
  'oldest',
  'updated_latest',
  'updated_oldest',
  'size_largest',
  'size_smallest',
  'attachments_with',
  'attachments_without',
  'company_desc',
  'company_asc',
  'category_desc',
  'category_asc',
] as const;
export const SearchSort = z.enum(SEARCH_SORTS, {
  message: `sort must be one of ${SEARCH_SORTS.join(', ')}`,
});
export type SearchSort = z.infer<typeof SearchSort>;

/**
 * `search_type` (002 §2): `{product}_web` searches the public corpus, `shared_data` the user's
 * groups' shared items; absent: what the user follows and owns ("My Data").
 */
export const SEARCH_TYPE_SHARED = 'shared_data';
export const webSearchType = (product: string) => `${product}_web`;
export const SearchType = z
  .string({ message: 'search_type must be text' })
  .max(64, { message: 'search_type must be at most 64 characters' })
  .regex(/^([a-z0-9]+_web|shared_data)$/, {
    message: 'search_type must be {product}_web or shared_data',
  });

/** Countries of /search/exchanges' filter, and the market each one is. */
export const EXCHANGE_COUNTRIES = {
  India: 'india_capital_markets',
  US: 'us_capital_markets',
  NZ: 'nz_capital_markets',
} as const;
export const ExchangeCountry = z.enum(Object.keys(EXCHANGE_COUNTRIES) as ['India', 'US', 'NZ'], {
  message: 'Country must be India, US or NZ',
});

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
export const TimeZone = text('timezone', 64).refine(isTimeZone, {
  message: 'timezone must be an IANA time zone such as Europe/London',
});

const names = (field: string) =>
  z.array(text(`${field}[]`, LIMITS.name)).max(50, { message: `${field} holds at most 50 values` });

/** Narrowing by facets: tags (the user's own tags, by name), companies, country. */
export const SearchFilter = z
  .object({
    tags: names('filter.tags').optional(),
    companies: names('filter.companies').optional(),
    exchanges: z.object({ Country: ExchangeCountry.optional() }).strict().optional(),
  })
  .strict();
export type SearchFilter = z.infer<typeof SearchFilter>;

/**
 * POST /search and /search/{source} (002 §7). `type: 'category'` with num_docs 0 answers the
 * category tabs with counts and the count only; with num_docs > 0 it answers the page of results
 * beside them (the worker asks a search's first page so: one request for rows and tabs). A
 * query may be empty: then every document of the scope matches (newest first unless sorted
 * otherwise). `board_id`/`channel_id` narrow the scope to a feed or a group; `/search/{source}`
 * to one source (its key).
 */
export const SearchBody = z
  .object({
    type: z
      .enum(['search', 'category'], { message: 'type must be search or category' })
      .default('search'),
    q: text('q', MAX_QUERY_CHARS).default(''),
    num_docs: z
      .number({ message: 'num_docs must be a number' })
      .int({ message: 'num_docs must be a whole number' })
      .min(0, { message: `num_docs must be between 0 and ${MAX_SEARCH_PAGE}` })
      .max(MAX_SEARCH_PAGE, { message: `num_docs must be between 0 and ${MAX_SEARCH_PAGE}` })
      .default(20),
    start_from: z
      .number({ message: 'start_from must be a number' })
      .int({ message: 'start_from must be a whole number' })
      .min(0, { message: `start_from must be between 0 and ${MAX_SEARCH_OFFSET}` })
      .max(MAX_SEARCH_OFFSET, {
        message: `start_from must be between 0 and ${MAX_SEARCH_OFFSET}`,
      })
      .default(0),
    board_id: id('board_id').optional(),
    channel_id: id('channel_id').optional(),
    search_type: SearchType.optional(),
    /** Only documents published today (in `timezone`, UTC without one). */
    today_date_range: z.boolean({ message: 'today_date_range must be true or false' }).optional(),
    timezone: TimeZone.optional(),
    spell_correct: z.boolean({ message: 'spell_correct must be true or false' }).optional(),
    sort: SearchSort.default('relevance'),
    /** Only this feed tab's documents (the /search/{subCategory} view). */
    tab: FeedTabKey.optional(),
    /** A duration option, or DD-MM-YYYY days (both inclusive, in `timezone`). */
    date_range: DateRange.partial().strict().optional(),
    filter: SearchFilter.optional(),
  })
  .strict();
export type SearchBody = z.input<typeof SearchBody>;
export type SearchRequest = z.output<typeof SearchBody>;

/** A character span [start, end) in a document's full plain text (DocumentDetail.body). */
export const TextSpan = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });
export type TextSpan = z.infer<typeof TextSpan>;

/**
 * One result: a card (002 §3) plus what search adds. `highlights` are HTML snippets whose only
 * markup is `<em>` around matched words (everything else escaped); `highlight_indexes` are the
 * spans of those matches in the document's full plain text, so the preview marks exactly them.
 */
export const SearchResult = ResultCard.extend({
  document_id: z.string(),
  title_label: z.string(),
  source_label: z.string(),
  highlights: z.array(z.string()),
  highlight_indexes: z.array(TextSpan),
  /** The best-matching passage's span in the full text (null when the query is empty). */
  passage: TextSpan.nullable(),
  /** Relevance score (higher is better); null when sorted otherwise. */
  score: z.number().nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchAnswer = z.object({
  results: z.array(SearchResult),
  /** Documents matching in the scope (and tab, when given). */
  count: z.number().int().nonnegative(),
  /** false when `count` is an estimate (very common terms over very large scopes). */
  count_exact: z.boolean(),
  has_more: z.boolean(),
  /**
   * The feed tabs (hidden ones removed, exchanges split by market) with match counts, for
   * `type: 'category'`; empty for `type: 'search'` (the tabs are their own call).
   */
  category_tabs: z.array(CategoryTabInfo),
  query_params: z.object({
    q: z.string(),
    /** A better spelling from the index's own vocabulary (only with spell_correct). */
    corrected_q: z.string().nullable(),
    /** The query the results are for: corrected_q when it was used, else q. */
    searched_q: z.string(),
    sort: SearchSort,
    start_from: z.number().int(),
    num_docs: z.number().int(),
  }),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;

export const FacetValue = z.object({ key: z.string(), count: z.number().int().nonnegative() });
export type FacetValue = z.infer<typeof FacetValue>;

/** POST /search/tags (002 §7): tag facets, `filter` narrows tag names (contains, any case). */
export const TagsBody = z
  .object({
    type: z.literal('filter', { message: 'type must be filter' }).default('filter'),
    filter: text('filter', LIMITS.name).optional(),
    sort: z.enum(['count', 'name'], { message: 'sort must be count or name' }).default('count'),
    channel_id: id('channel_id').optional(),
    board_id: id('board_id').optional(),
    q: text('q', MAX_QUERY_CHARS).optional(),
    search_type: SearchType.optional(),
  })
  .strict();
export const TagsAnswer = z.object({ facets: z.object({ tags: z.array(FacetValue) }) });
export type TagsAnswer = z.infer<typeof TagsAnswer>;

/** POST /search/exchanges (002 §7): the companies filing on exchanges, optionally by country. */
export const ExchangesBody = z
  .object({
    type: z.literal('filter', { message: 'type must be filter' }).default('filter'),
    search_type: SearchType.optional(),
    num_docs: z.literal(0, { message: 'num_docs must be 0' }).default(0),
    board_id: id('board_id').optional(),
    q: text('q', MAX_QUERY_CHARS).optional(),
    filter: z
      .object({ exchanges: z.object({ Country: ExchangeCountry.optional() }).strict() })
      .partial()
      .strict()
      .optional(),
  })
  .strict();
export const ExchangesAnswer = z.object({
  facets: z.object({ exchanges: z.object({ Companies: z.array(FacetValue) }) }),
});
export type ExchangesAnswer = z.infer<typeof ExchangesAnswer>;

/**
 * What a tab asks the worker for: a search without paging. The worker mirrors each query's
 * results under a key made from these fields (`searchKey`), so a repeated search paints at once.
 */
export const SearchParams = z.object({
  q: text('q', MAX_QUERY_CHARS),
  tab: FeedTabKey.nullable().default(null),
  sort: SearchSort.default('relevance'),
  board_id: id('board_id').nullable().default(null),
  channel_id: id('channel_id').nullable().default(null),
  search_type: SearchType.nullable().default(null),
  /** One source's documents (its key): /search/{source}. */
  source: id('source').nullable().default(null),
  date_range: DateRange.partial().nullable().default(null),
  today: z.boolean().default(false),
  timezone: TimeZone.nullable().default(null),
  spell_correct: z.boolean().default(true),
  filter: SearchFilter.nullable().default(null),
});
export type SearchParams = z.output<typeof SearchParams>;
export type SearchParamsInput = z.input<typeof SearchParams>;

/** The mirror key of a search: the same for the same parameters, whatever their order. */
export const searchKey = (p: SearchParams): string =>
  JSON.stringify([
    p.q.trim(),
    p.tab,
    p.sort,
    p.board_id,
    p.channel_id,
    p.search_type,
    p.source,
    p.date_range
      ? [
          p.date_range.durationOption ?? null,
          p.date_range.startDate ?? null,
          p.date_range.endDate ?? null,
        ]
      : null,
    p.today,
    p.timezone,
    p.spell_correct,
    p.filter
      ? [
          [...(p.filter.tags ?? [])].sort(),
          [...(p.filter.companies ?? [])].sort(),
          p.filter.exchanges?.Country ?? null,
        ]
      : null,
  ]);

/**
 * The mirror key of one result row in 'search_results': the search's key and the row's rank
 * (0-based). 'changed' events on 'search_results' name these keys.
 */
export const searchRowId = (key: string, rank: number) => `${key}\u0000${rank}`;
/** Whether a 'search_results' key (from a 'changed' event) is a row of the search `key`. */
export const isSearchRowOf = (rowId: string, key: string) => rowId.startsWith(`${key}\u0000`);

/** One mirrored result row, with the reader's read state. */
export const SearchRow = SearchResult.extend({ read: z.boolean() });
export type SearchRow = z.infer<typeof SearchRow>;

export const SearchWindow = z.object({
  key: z.string(),
  offset: z.number().int(),
  rows: z.array(SearchRow),
  count: z.number().int().nonnegative(),
  count_exact: z.boolean(),
  /** Rows the server can page to (count capped at MAX_SEARCH_OFFSET + MAX_SEARCH_PAGE). */
  reachable: z.number().int().nonnegative(),
  category_tabs: z.array(CategoryTabInfo),
  corrected_q: z.string().nullable(),
  searched_q: z.string(),
  /** Answered from the mirror; a revalidation is under way ('changed' on search_results). */
  stale: z.boolean(),
  /** When the mirrored answer was fetched (ms). */
  fetched_at: z.number(),
});
export type SearchWindow = z.infer<typeof SearchWindow>;

export const search = defineDomain({
  name: 'search',
  endpoints: {
    search: endpoint({
      method: 'post',
      path: '/search',
      auth: true,
      body: SearchBody,
      response: SearchAnswer,
      status: 200,
      summary: 'Search what the user may see, with category-tab counts and highlights',
    }),
    searchTags: endpoint({
      method: 'post',
      path: '/search/tags',
      auth: true,
      body: TagsBody,
      response: TagsAnswer,
      status: 200,
      summary: 'Tag facets of the documents in scope',
    }),
    searchExchanges: endpoint({
      method: 'post',
      path: '/search/exchanges',
      auth: true,
      body: ExchangesBody,
      response: ExchangesAnswer,
      status: 200,
      summary: 'Companies filing on exchanges in scope, optionally by country',
    }),
    searchSource: endpoint({
      method: 'post',
      path: '/search/{source}',
      auth: true,
      body: SearchBody,
      response: SearchAnswer,
      status: 200,
      summary: "Search one source's documents (category-tab counts of an app view)",
    }),
  },
  ops: {
    /**
     * A window of a search's results: from the mirror at once when this query was run before
     * (then revalidated: a 'changed' event on 'search_results' when the answer moved), else
     * fetched. Rows the mirror lacks are fetched in pages and announced the same way.
     */
    'search.window': op(
      z.object({
        params: SearchParams,
        offset: z
          .number()
          .int()
          .min(0)
          .max(MAX_SEARCH_OFFSET + MAX_SEARCH_PAGE),
        count: z.number().int().min(1).max(MAX_SEARCH_PAGE),
      }),
      SearchWindow,
    ),
    /** Fetch the query again now (the Try again of an error, or a pull to refresh). */
    'search.refresh': op(z.object({ params: SearchParams }), SearchWindow),
    'search.tags': op(
      z.object({ params: SearchParams, filter: text('filter', LIMITS.name).optional() }),
      z.array(FacetValue),
    ),
    'search.exchanges': op(
      z.object({ params: SearchParams, country: ExchangeCountry.nullable().default(null) }),
      z.array(FacetValue),
    ),
  },
  changes: {},
  stores: ['search_queries', 'search_results'],
});
