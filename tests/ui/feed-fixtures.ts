import { EMPTY_DEFINITION, type Board } from '../../contract/boards';
import type { CategoryTabInfo } from '../../contract/documents';
import type { Source } from '../../contract/sources';
import type { OpInput, OpOutput } from '../../contract/worker-api';

export type BoardEntryRow = OpOutput<'feed.window'>['rows'][number];

/** The card at 1-based place `i` of a generated feed: "Story i", document d{i}. */
export function storyCard(i: number, patch: Partial<BoardEntryRow> = {}): BoardEntryRow {
  return {
    doc_id: `d${i}`,
    deeplink: `d${i}`,
    source: 'reuters',
    source_id: 's1',
    label: 'Reuters',
    category: 'rss_news',
    category_tab: 'rss_news',
    market: null,
    unix: 1_700_000_000 - i * 60,
    title: `Story ${i}`,
    link: `https://example.com/story/${i}`,
    plain_text: `Body of story ${i}.`,
    thumbnail_location: null,
    mime_type: 'text/html',
    company_name: null,
    security_code: null,
    security_id: null,
    secondary_category: null,
    categories: ['Markets'],
    access_key: '',
    seq: i,
    read: false,
    ...patch,
  };
}

/**
 * A feed as the worker's mirror answers windows of it: `total` generated stories (newest
 * first), plus any added at the top; read state kept per deeplink like the read_status store.
 */
export function createFeed(total: number, tabs?: CategoryTabInfo[]) {
  const read = new Set<string>();
  const front: BoardEntryRow[] = [];
  const at = (p: number): BoardEntryRow => {
    const row = p < front.length ? front[p] : storyCard(p - front.length + 1);
    return { ...row, read: read.has(row.deeplink) };
  };
  const size = () => total + front.length;
  return {
    window: (input: OpInput<'feed.window'>): OpOutput<'feed.window'> => {
      const rows: BoardEntryRow[] = [];
      const end = Math.min(input.offset + input.count, size());
      for (let p = input.offset; p < end; p += 1) rows.push(at(p));
      return { offset: input.offset, rows, total: size(), complete: true };
    },
    tabs: (): OpOutput<'feed.tabs'> =>
      tabs ?? [{ key: 'rss_news', label: 'News', data: size(), icon: 'news' }],
    setRead: (deeplinks: string[], status: 'read' | 'unread') => {
      for (const d of deeplinks) {
        if (status === 'read') read.add(d);
        else read.delete(d);
      }
    },
    addNewest: (row: BoardEntryRow) => front.unshift(row),
  };
}

export function board(id: string, name: string): Board {
  return {
    board_id: id,
    board_name: name,
    description: '',
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    enabled: true,
    hidden: false,
    isNew: false,
    kind: 'custom',
    definition: EMPTY_DEFINITION,
    version: 1,
  };
}

export function source(patch: Partial<Source> = {}): Source {
  return {
    source_id: 'src1',
    key: 'rss_1',
    label: 'Fixture Feed',
    category: 'rss_news',
    category_tab: 'rss_news',
    market: null,
    group: null,
    kind: 'rss',
    link_to_crawl: 'http://127.0.0.1:9999/feed.xml',
    value: null,
    thumbnail_location: null,
    flag: 'rss_news',
    public: false,
    followed: true,
    priority: false,
    status: {
      state: 'ok',
      last_run_at: '2024-01-01T10:00:00.000Z',
      next_run_at: '2024-01-01T10:15:00.000Z',
      items: 3,
      last_new: 3,
      last_error: null,
    },
    ...patch,
  };
}

/** Flags of the server's defaults that the feed screens read. */
export const FEED_FLAGS = {
  my_data: true,
  my_feeds: true,
  search: true,
  rss_news: true,
  exchanges: true,
  doc_mark_as_read: true,
  website_unfollow: true,
  website_priority: true,
  ask_needl_copilot: true,
};
