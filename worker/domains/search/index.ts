import { search } from '../../../contract/search';
import { defineWorkerDomain } from '../../registry';
import { exchangesBody, tagsBody } from './search-fetch';
import { rowsShowingReadState } from '../read-state';
import {
  createSearchState,
  markSearchesStale,
  QUERIES_SPEC,
  RESULTS_SPEC,
  searchRowsOfDocs,
} from './search-store';
import { readSearchWindow, refreshSearch } from './search-window';

/**
 * Search: every search a tab runs is mirrored (search-store.ts), so a repeated search paints
 * at once from the mirror and is revalidated behind it (search-window.ts); the facets (tags,
 * exchanges' companies) are asked of the server each time. It follows the feeds' 'feed'
 * change (mirrored searches are marked stale) and the documents' read state (the rows showing
 * them are re-read); a sign-out wipes them with the rest.
 */
export const searchDomain = defineWorkerDomain(search, {
  state: createSearchState,
  stores: {
    search_queries: QUERIES_SPEC,
    search_results: RESULTS_SPEC,
  },
  reads: {
    'search.window': (ctx, input) => readSearchWindow(ctx, input),
    'search.refresh': (ctx, { params }) => refreshSearch(ctx, params),
    async 'search.tags'(ctx, { params, filter }, conn) {
      const answer = await ctx.client.call('searchTags', {
        body: tagsBody(params, filter),
        variant: conn.variant,
        signal: ctx.signal(),
      });
      return answer.facets.tags;
    },
    async 'search.exchanges'(ctx, { params, country }, conn) {
      const answer = await ctx.client.call('searchExchanges', {
        body: exchangesBody(params, country),
        variant: conn.variant,
        signal: ctx.signal(),
      });
      return answer.facets.exchanges.Companies;
    },
  },
  changes: {},
  follows: {
    stores: {
      // The rows showing these documents carry their read state: their tabs re-read them.
      read_status: rowsShowingReadState('search_results', searchRowsOfDocs),
    },
    changes: {
      // New documents in a feed: mirrored searches may miss them (revalidated when next read).
      feed(_change, tx) {
        tx.after(async (ctx) => markSearchesStale(await ctx.mirror));
      },
    },
  },
});
