import { pathSegments } from './path';
import { assistantLabel, productLabel } from './product';
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

const SETTINGS_TITLES: Record<string, string> = {
  tags: 'Tags Manager',
  storage: 'Storage',
  feeds: 'Feed Manager',
  contacts: 'Contacts',
  channels: 'Groups',
  'user-settings': 'User Settings',
  portfolios: 'Portfolios',
};

const MANAGER_TITLES: Record<string, string> = {
  assistants: 'Assistants',
  report_generation: 'Report Generation',
  report: 'Report',
};

const FIXED_PAGE_TITLES: Record<string, string> = {
  home: 'Home',
  notifications: 'Notifications',
  search: 'Search',
  connect: 'Connect',
  report: 'Report',
  onboarding: 'Onboarding',
  'custom-feed': 'Custom Feed',
  integrations: 'Integrations',
  document: 'Document',
  image: 'Image',
  extension: 'Extension',
  preview: 'Preview',
};

/** Where a search looks, from search_type: "{product} Web", "Group Data" or "My Data". */
function searchLocation(product: string, searchType: string | undefined): string {
  if (searchType === `${product}_web`) return `${productLabel(product)} Web`;
  if (searchType === 'shared_data') return 'Group Data';
  return 'My Data';
}

/** The page's own title: "Notifications", "Search", the assistant, "My Data", a feed's name... */
function baseTitle(input: PageHeaderInput): string {
  const { product, entityName } = input;
  const [first = 'home', second, third] = pathSegments(input.pathname);
  const ownName = (fallback: string) => entityName ?? fallback;
  switch (first) {
    case `ask-${product}`:
      return input.assistantName ?? assistantLabel(product);
    case 'feeds':
      if (second === undefined) return 'Feeds';
      if (second === 'home') return 'My Data';
      return ownName(sourceTitle(second, product));
    case 'channels':
      if (second === undefined) return 'Groups';
      if (second === 'home') return 'Group Data';
      return ownName('Groups');
    case 'apps':
      return second === undefined ? 'Apps' : ownName(sourceTitle(second, product));
    case 'notebooks':
      return second === undefined ? 'Notebooks' : ownName('Notebooks');
    case 'needlbox':
      return second === undefined ? 'Needlbox' : sourceTitle(second, product);
    case 'settings':
      if (second === undefined) return 'Settings';
      if (second === 'channels' && third !== undefined) return ownName('Groups');
      return SETTINGS_TITLES[second] ?? sourceTitle(second, product);
    case 'managers':
      return (second && MANAGER_TITLES[second]) || 'Managers';
    default:
      return FIXED_PAGE_TITLES[first] ?? sourceTitle(first, product);
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
