import { useEffect, useReducer, useState } from 'react';
import {
  isSearchRowOf,
  searchKey,
  type SearchParams,
  type SearchRow,
  type SearchWindow,
} from '../../../contract/search';
import { createWindowedList, type WindowedList } from '../../lists/windowed-list';
import { useShell } from '../../shell-context';

/** A window of a search as the list reads it: `total` is how far the results can be paged. */
export type SearchAnswer = SearchWindow & { total: number };
export type SearchList = WindowedList<SearchRow, SearchAnswer>;

/** Rows per window read (the contract's page is at most 100) and the most blocks held. */
const BLOCK = 50;
const MAX_BLOCKS = 6;

/**
 * A search's results read from the worker's mirror by windows (search.window), however many
 * there are: the same windowed list as every long list (src/lists). A search run before paints
 * at once from the mirror while the worker revalidates it; when the answer moved, a 'changed'
 * event on search_results re-reads the rows shown, as one on read_status does for read state.
 *
 * Mount one per search (give the component a `key` made with `searchKey`): `params` is read
 * when the list is made.
 */
export function useSearchWindow(params: SearchParams): SearchList {
  const { client } = useShell();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [list] = useState(() =>
    createWindowedList<SearchRow, SearchAnswer>({
      read: (window) =>
        client
          .call('search.window', { params, ...window })
          .then((answer) => ({ ...answer, total: answer.reachable })),
      keyOf: (row) => row.doc_id,
      block: BLOCK,
      maxBlocks: MAX_BLOCKS,
      onUpdate: rerender,
    }),
  );

  const [key] = useState(() => searchKey(params));
  useEffect(() => {
    const stop = client.onEvent((event) => {
      if (event.type !== 'changed') return;
      if (event.store === 'read_status') list.changed(event.keys);
      // Rows of this search changed (keys name rows by search and rank), or its answer moved
      // (count, tabs, spelling; keys name searches): read the shown rows again.
      const mine =
        event.keys === null ||
        (event.store === 'search_results' && event.keys.some((k) => isSearchRowOf(k, key))) ||
        (event.store === 'search_queries' && event.keys.includes(key));
      if ((event.store === 'search_results' || event.store === 'search_queries') && mine) {
        list.changed(null);
      }
    });
    // Read on every mount: the answer may have moved while no one listened.
    list.refresh();
    return stop;
  }, [client, list, key]);

  return list;
}

/**
 * Try again after a failure: the worker fetches the search anew (search.refresh), then the list
 * reads its windows again (a second failure shows again).
 */
export function retrySearch(
  client: ReturnType<typeof useShell>['client'],
  params: SearchParams,
  list: SearchList,
) {
  void client
    .call('search.refresh', { params })
    .catch(() => undefined)
    .finally(() => list.refresh());
}
