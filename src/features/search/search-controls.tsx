import { Link } from '@tanstack/react-router';
import { SEARCH_SORTS, type SearchSort } from '../../../contract/search';
import { withoutOverlayParams } from '../../lib/overlay';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { FeedTabsBar } from '../boards';
import { ALL_TAB, type TabKey } from '../documents';
import { DateRangeMenu } from './date-range-menu';
import { SearchInput } from './search-input';
import { searchTabs } from './search-view';
import type { SearchPageState } from './use-search-page';

/** What the sort menu says for each of the contract's search sorts. */
const SEARCH_SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Relevance',
  latest: 'Latest first',
  oldest: 'Oldest first',
  updated_latest: 'Latest updated',
  updated_oldest: 'Oldest updated',
  size_largest: 'Size: largest',
  size_smallest: 'Size: smallest',
  attachments_with: 'With attachments',
  attachments_without: 'Without attachments',
  company_desc: 'Company Z to A',
  company_asc: 'Company A to Z',
  category_desc: 'Category Z to A',
  category_asc: 'Category A to Z',
};

/**
 * What sits above the results: the search box, the category tabs with counts, the sort menu,
 * the date range and (on /search) the way to the full page. On /search and /search/{tab} a tab
 * is a route of its own; on an app's search and the full page it is `category_tab`.
 */
export function SearchControls(props: {
  page: SearchPageState;
  panelId: string;
  /** Extra changes when the query or tab changes (the full page forgets its chosen result). */
  onQueryPatch?: Record<string, undefined>;
}) {
  const { product } = useShell();
  const r = routesFor(product);
  const { page } = props;
  const { route, setQuery } = page;
  const infos = page.lastAnswer?.category_tabs ?? null;
  const tabs = infos === null ? [] : searchTabs(infos, page.tab);
  const tabsAreRoutes = route.kind === 'all' || route.kind === 'tab';

  const selectTab = (key: TabKey) => {
    const patch = { ...props.onQueryPatch, category_tab: undefined, company: undefined };
    if (tabsAreRoutes) {
      setQuery(patch, { to: key === ALL_TAB ? r.search.root : r.search.sub(key) });
    } else {
      setQuery({ ...patch, category_tab: key === ALL_TAB ? undefined : key });
    }
  };

  return (
    <div className="search-controls">
      <SearchInput
        value={page.params.q}
        onSearch={(q, how) =>
          setQuery(
            { ...props.onQueryPatch, q: q || undefined, spell_correct: undefined },
            { replace: how === 'typed' },
          )
        }
      />
      <div className="feed-toolbar search-toolbar">
        <FeedTabsBar tabs={tabs} selected={page.tab} panelId={props.panelId} onSelect={selectTab} />
        <div className="search-menus">
          <SearchSortMenu
            value={page.params.sort}
            onChange={(sort) => setQuery({ sort: sort === 'relevance' ? undefined : sort })}
          />
          <DateRangeMenu value={page.params.date_range} onChange={(patch) => setQuery(patch)} />
          {tabsAreRoutes ? (
            <Link
              className="button secondary small"
              to={r.search.full}
              search={(prev: Record<string, unknown>) => ({
                ...withoutOverlayParams(prev),
                category_tab: page.tab === ALL_TAB ? undefined : page.tab,
              })}
            >
              Full screen
            </Link>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** The sort options of 002 §9, in its order and words. */
export function SearchSortMenu(props: { value: SearchSort; onChange: (sort: SearchSort) => void }) {
  return (
    <label className="sort-menu">
      <span>Sort by</span>
      <select
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value as SearchSort)}
      >
        {SEARCH_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SEARCH_SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </label>
  );
}
