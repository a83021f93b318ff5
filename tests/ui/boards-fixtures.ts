import type { Board, BoardDefinition, FeedSuggestion } from '../../contract/boards';
import type { ResultCard } from '../../contract/documents';
import type { Source } from '../../contract/sources';

/** Records as the worker answers them, for the feed builder's UI tests. */

export const NO_QUERY: BoardDefinition = {
  sources: [],
  keywords: { include: [], exclude: [] },
  filters: { filter: [], exclusion_filter: [] },
  date_range: null,
  ai: null,
};

export function source(id: string, label: string, key = id): Source {
  return {
    source_id: id,
    key,
    label,
    category: 'rss_news',
    category_tab: 'rss_news',
    market: null,
    group: null,
    kind: 'rss',
    link_to_crawl: `https://example.com/${key}.xml`,
    value: 'https://example.com',
    thumbnail_location: null,
    flag: 'rss_news',
    public: false,
    followed: true,
    priority: false,
    status: {
      state: 'ok',
      last_run_at: null,
      next_run_at: null,
      items: 10,
      last_new: 0,
      last_error: null,
    },
  };
}

export function board(id: string, name: string, patch: Partial<Board> = {}): Board {
  return {
    board_id: id,
    board_name: name,
    description: '',
    created_at: '2024-06-01T00:00:00.000Z',
    updated_at: '2024-06-01T00:00:00.000Z',
    enabled: true,
    hidden: false,
    isNew: false,
    kind: 'custom',
    definition: NO_QUERY,
    version: 1,
    ...patch,
  };
}

export function card(id: string, title: string): ResultCard {
  return {
    doc_id: id,
    deeplink: id,
    source: 'reuters',
    source_id: 's1',
    label: 'Reuters',
    category: 'rss_news',
    category_tab: 'rss_news',
    market: null,
    unix: 1_718_000_000,
    title,
    link: `https://example.com/${id}`,
    plain_text: `${title} text`,
    thumbnail_location: null,
    mime_type: 'text/html',
    company_name: null,
    security_code: null,
    security_id: null,
    secondary_category: null,
    categories: [],
    access_key: 'k',
    seq: 1,
  };
}

export function suggestion(
  id: string,
  name: string,
  definition: Partial<BoardDefinition>,
  patch: Partial<FeedSuggestion> = {},
): FeedSuggestion {
  return {
    suggestion_id: id,
    board_name: name,
    description: '',
    definition: { ...NO_QUERY, ...definition },
    reasons: [],
    count: 0,
    ...patch,
  };
}

/** A keyword as the contract stores it. */
export const kw = (keyword: string) => ({ keyword, valid: true });
