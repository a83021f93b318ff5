import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HOME_BOARD } from '../../../contract/boards';
import { searchKey, type SearchParams } from '../../../contract/search';
import type { Source } from '../../../contract/sources';
import { useBoards } from '../../layout/use-entity-names';
import { sourceTitle } from '../../lib/sources';
import { useShell } from '../../shell-context';
import type { SearchSummary } from './search-results';
import {
  browserTimeZone,
  searchParamsOf,
  searchRouteOf,
  selectedTabOf,
  type SearchQuery,
  type SearchRoute,
} from './search-view';

/** A change to the address's query: undefined removes a parameter. */
export type QueryPatch = Record<string, string | undefined>;

/**
 * What every search screen reads from its address (the route, the query, the worker's search
 * parameters and their mirror key), how it changes it, and the latest answer's summary (count,
 * tabs, spelling) for the header and the tabs around the list.
 */
export function useSearchPage() {
  const location = useRouterState({ select: (s) => s.location });
  const navigate = useNavigate();
  const search = location.search as SearchQuery;
  const route: SearchRoute = searchRouteOf(location.pathname) ?? { kind: 'all' };
  const [timezone] = useState(browserTimeZone);

  // The same parameters object while the search is the same (effects and lists key on it).
  const computed = searchParamsOf(route, search, timezone);
  const key = searchKey(computed);
  const stable = useRef<{ key: string; params: SearchParams }>({ key, params: computed });
  if (stable.current.key !== key) stable.current = { key, params: computed };
  const { params } = stable.current;

  const [summary, setSummary] = useState<{ key: string; value: SearchSummary } | null>(null);
  const onSummary = useCallback((value: SearchSummary) => setSummary({ key, value }), [key]);

  const setQuery = useCallback(
    (patch: QueryPatch, opts: { to?: string; replace?: boolean } = {}) =>
      void navigate({
        to: opts.to ?? '.',
        replace: opts.replace,
        search: (prev: Record<string, unknown>) => {
          const next: Record<string, unknown> = { ...prev, ...patch };
          for (const [name, value] of Object.entries(patch)) {
            if (value === undefined) delete next[name];
          }
          return next;
        },
      }),
    [navigate],
  );

  const answer = summary?.key === key ? summary.value : null;
  // Spelling was corrected when the results are for the corrected query.
  const corrected =
    answer?.corrected_q && answer.searched_q === answer.corrected_q ? answer.corrected_q : null;

  return {
    pathname: location.pathname,
    search,
    route,
    params,
    key,
    tab: selectedTabOf(route, search),
    /** The latest answer of this search, or null while it is on its way. */
    answer,
    /** The latest answer of any search here (the tabs keep their counts while a tab loads). */
    lastAnswer: summary?.value ?? null,
    corrected,
    /** The query the results are for: the corrected one, else the one typed. */
    searched: corrected ?? params.q,
    onSummary,
    setQuery,
  };
}

export type SearchPageState = ReturnType<typeof useSearchPage>;

/**
 * Where the search looks, for the header "{query} in {location}": the app's name on
 * /search/{source}, the feed's name with board_id; undefined leaves it to search_type (My Data,
 * {Product} Web, Group Data).
 */
export function useSearchLocation(route: SearchRoute, params: SearchParams): string | undefined {
  const { client, product } = useShell();
  const board = params.board_id;
  const boards = useBoards(board === null || board === HOME_BOARD);
  const onSource = route.kind === 'source';
  const [sources, setSources] = useState<Source[] | null>(null);
  useEffect(() => {
    if (!onSource) return undefined;
    let alive = true;
    client.call('sources.list', {}).then(
      (answer) => alive && setSources(answer),
      () => alive && setSources([]),
    );
    return () => {
      alive = false;
    };
  }, [client, onSource]);

  if (route.kind === 'source') {
    return (
      sources?.find((s) => s.key === route.source)?.label ?? sourceTitle(route.source, product)
    );
  }
  if (board === HOME_BOARD) return 'My Data';
  if (board !== null) return boards?.find((b) => b.board_id === board)?.board_name;
  return undefined;
}
