import { pathSegments } from './path';
import { assistantLabel, productLabel } from './product';
import { labelOfSegments } from './route-labels';
import { sourceTitle } from './sources';

export type PageHeaderInput = {
  pathname: string;
  product: string;
  /** The search query in effect on the page, if any. */
  query?: string;
  /** Where the query searched ("My Data", a feed's name); defaults to the page's own title. */
  location?: string;
  /** The query the user typed when search corrected its spelling. */
  spellCorrectedFrom?: string;
  /** The assistant's display name; defaults to "Ask{product}". */
  assistantName?: string;
  /** The feed, channel, app or notebook name the page shows, once known. */
  entityName?: string;
  /** The search_type query parameter: `{product}_web` or shared_data. */
  searchType?: string;
};

export type PageHeader = { title: string; subtitle?: string };

/** Where a search looks, from search_type: "{product} Web", "Group Data" or "My Data". */
function searchLocation(product: string, searchType: string | undefined): string {
  if (searchType === `${product}_web`) return `${productLabel(product)} Web`;
  if (searchType === 'shared_data') return 'Group Data';
  return 'My Data';
}

/**
 * The page's own title: "Notifications", "Search", the assistant, "My Data", a feed's name...
 * It is the label of the route the page belongs to (src/lib/route-labels.ts), the same words
 * its breadcrumb shows: /feeds/home/drives is My Data's page, /search/exchanges is Search's.
 */
function baseTitle(input: PageHeaderInput): string {
  const { product, entityName } = input;
  const segments = pathSegments(input.pathname);
  const [first = 'home', second, third] = segments;
  /** The label of the route made of the first `count` segments, else `fallback`. */
  const routeOf = (count: number, fallback: string) =>
    labelOfSegments(count === 1 ? [first] : segments, count, product) ?? fallback;
  const ownName = (fallback: string) => entityName ?? fallback;
  switch (first) {
    case `ask-${product}`:
      return input.assistantName ?? routeOf(1, assistantLabel(product));
    case 'feeds':
    case 'apps':
      if (second === undefined) return routeOf(1, sourceTitle(first, product));
      if (second === 'home' && first === 'feeds') return routeOf(2, 'My Data');
      return ownName(sourceTitle(second, product));
    case 'channels':
      if (second === undefined) return routeOf(1, 'Groups');
      if (second === 'home') return routeOf(2, 'Group Data');
      return ownName(routeOf(1, 'Groups'));
    case 'notebooks':
      return second === undefined ? routeOf(1, 'Notebooks') : ownName(routeOf(1, 'Notebooks'));
    case 'needlbox':
      if (second === undefined) return routeOf(1, 'Needlbox');
      return routeOf(2, sourceTitle(second, product));
    case 'settings':
      if (second === undefined) return routeOf(1, 'Settings');
      if (second === 'channels' && third !== undefined) return ownName(routeOf(2, 'Groups'));
      if (second === 'contacts' && third !== undefined) return ownName(routeOf(2, 'Contacts'));
      // The most specific page with a label of its own (/settings/feeds/root: Feed Manager).
      return routeOf(segments.length, routeOf(2, sourceTitle(second, product)));
    case 'pulse':
      // Pulse's own pages are headed by their own route's label (its user settings page).
      return routeOf(segments.length, routeOf(1, 'Pulse'));
    case 'managers':
      return second === undefined ? routeOf(1, 'Managers') : routeOf(2, routeOf(1, 'Managers'));
    default:
      return routeOf(1, sourceTitle(first, product));
  }
}

/**
 * The page header (000 §2, 002 §2). With a search query it reads "{query} in {location}"; a
 * spell-corrected query keeps the text the user typed as the sub-header.
 */
export function pageHeader(input: PageHeaderInput): PageHeader {
  const query = input.query?.trim();
  if (!query) return { title: baseTitle(input) };
  const onSearch = pathSegments(input.pathname)[0] === 'search';
  const location =
    input.location ??
    (onSearch ? searchLocation(input.product, input.searchType) : baseTitle(input));
  const original = input.spellCorrectedFrom?.trim();
  return original && original !== query
    ? { title: `${query} in ${location}`, subtitle: original }
    : { title: `${query} in ${location}` };
}
