import { DayDate, DurationOption } from '../../../contract/date-range';
import { FEED_TABS, type CategoryTabInfo, type FeedTabKey } from '../../../contract/documents';
import {
  EXCHANGE_COUNTRIES,
  MAX_QUERY_CHARS,
  SearchSort,
  SearchType,
  TimeZone,
  type SearchFilter,
  type SearchParams,
} from '../../../contract/search';
import { pathSegments } from '../../lib/path';
import { ALL_TAB, isFeedTab, shownTabs, type ShownTab, type TabKey } from '../documents';

/**
 * Which search a search route shows (000 §2, 002 §2), read from its path and query. No React,
 * no DOM.
 *
 * - /search: every tab of what the user may search, with an "All" tab first.
 * - /search/{tab} (a feed tab key, e.g. rss_news): that tab; the tabs bar moves between routes.
 * - /search/{source} (any other key): that source's documents (the app's view); its tabs are
 *   the `category_tab` parameter.
 * - /search/full: the results beside the selected result's document; tabs as `category_tab`.
 *
 * The query: q, spell_correct ("false" turns correction off), search_type ({product}_web or
 * shared_data), board_id, channel_id, sort, durationOption or startDate/endDate (DD-MM-YYYY),
 * tag and company (a facet chosen in the filters).
 */
export type SearchRoute =
  | { kind: 'all' }
  | { kind: 'tab'; tab: FeedTabKey }
  | { kind: 'source'; source: string }
  | { kind: 'full' };

export function searchRouteOf(pathname: string): SearchRoute | null {
  const [first, sub, ...rest] = pathSegments(pathname);
  if (first !== 'search' || rest.length > 0) return null;
  if (sub === undefined) return { kind: 'all' };
  if (sub === 'full') return { kind: 'full' };
  if (isFeedTab(sub)) return { kind: 'tab', tab: sub };
  return { kind: 'source', source: sub };
}

/** The query parameters a search reads (the address keeps them as plain strings). */
export type SearchQuery = Record<string, unknown>;

const str = (search: SearchQuery, key: string): string | undefined => {
  const value = search[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** The query as typed (trimmed); too long a query is cut where the contract stops reading. */
export const queryOf = (search: SearchQuery) => (str(search, 'q') ?? '').slice(0, MAX_QUERY_CHARS);

/** The tab the view shows: the route's, or `category_tab` where tabs are a parameter. */
export function selectedTabOf(route: SearchRoute, search: SearchQuery): TabKey {
  if (route.kind === 'tab') return route.tab;
  const requested = str(search, 'category_tab');
  return requested !== undefined && isFeedTab(requested) ? requested : ALL_TAB;
}

/** The exchange country of an exchange tab, else null (companies are faceted only there). */
export function exchangeCountryOf(tab: TabKey): keyof typeof EXCHANGE_COUNTRIES | null {
  for (const [country, market] of Object.entries(EXCHANGE_COUNTRIES)) {
    if (market === tab) return country as keyof typeof EXCHANGE_COUNTRIES;
  }
  return null;
}

/** The date range chosen: a duration option, or a custom DD-MM-YYYY range, or none. */
export function dateRangeOf(search: SearchQuery): SearchParams['date_range'] {
  const option = DurationOption.safeParse(str(search, 'durationOption'));
  if (option.success) return { durationOption: option.data };
  const start = DayDate.safeParse(str(search, 'startDate'));
  const end = DayDate.safeParse(str(search, 'endDate'));
  if (start.success && end.success) return { startDate: start.data, endDate: end.data };
  return null;
}

function filterOf(search: SearchQuery, tab: TabKey): SearchFilter | null {
  const tag = str(search, 'tag');
  const company = exchangeCountryOf(tab) ? str(search, 'company') : undefined;
  if (tag === undefined && company === undefined) return null;
  return {
    ...(tag !== undefined ? { tags: [tag] } : {}),
    ...(company !== undefined ? { companies: [company] } : {}),
  };
}

const optionalId = (value: string | undefined) =>
  value !== undefined && value.length <= 128 ? value : null;

let zoneRead: string | null | undefined;

/**
 * The browser's time zone when the contract accepts it (day ranges are days there). Read once
 * per page: the first read costs tens of milliseconds (ICU loads its zone data).
 */
export function browserTimeZone(): string | null {
  if (zoneRead !== undefined) return zoneRead;
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    zoneRead = TimeZone.safeParse(zone).success ? zone : null;
  } catch {
    zoneRead = null;
  }
  return zoneRead;
}

/** The worker's search parameters for a route and its query (every field set). */
export function searchParamsOf(
  route: SearchRoute,
  search: SearchQuery,
  timezone: string | null,
): SearchParams {
  const tab = selectedTabOf(route, search);
  const sort = SearchSort.safeParse(str(search, 'sort'));
  const type = SearchType.safeParse(str(search, 'search_type'));
  return {
    q: queryOf(search),
    tab: tab === ALL_TAB ? null : tab,
    sort: sort.success ? sort.data : 'relevance',
    board_id: optionalId(str(search, 'board_id')),
    channel_id: optionalId(str(search, 'channel_id')),
    search_type: type.success ? type.data : null,
    source: route.kind === 'source' ? route.source : null,
    date_range: dateRangeOf(search),
    today: false,
    timezone,
    spell_correct: str(search, 'spell_correct') !== 'false',
    filter: filterOf(search, tab),
  };
}

/** The same search without its facet choice (the facets list every value, chosen or not). */
export const withoutFilter = (params: SearchParams): SearchParams => ({ ...params, filter: null });

/** "About 1,200 results", "12 results", "1 result". */
export function resultCountText(count: number, exact: boolean): string {
  const n = `${count.toLocaleString('en-US')} ${count === 1 ? 'result' : 'results'}`;
  return exact ? n : `About ${n}`;
}

/** The text shown when a search finds nothing (002 §2). */
export const NO_RESULTS_TEXT = 'No search results found.';

/**
 * The category tabs of a search's answer: "All" first (every match), then each tab with
 * matches, in the feed's order and words; the tab shown stays listed at 0 (the user chose it).
 */
export function searchTabs(infos: readonly CategoryTabInfo[], selected: TabKey): ShownTab[] {
  const tabs = shownTabs(infos, null);
  if (tabs.some((t) => t.key === selected)) return tabs;
  const order = (key: TabKey) => FEED_TABS.findIndex((t) => t.key === key);
  const missing = FEED_TABS.find((t) => t.key === selected);
  if (!missing) return tabs;
  const at = tabs.findIndex((t) => t.key !== ALL_TAB && order(t.key) > order(selected));
  const added = { key: missing.key, label: missing.label, count: 0 };
  return at === -1 ? [...tabs, added] : [...tabs.slice(0, at), added, ...tabs.slice(at)];
}
