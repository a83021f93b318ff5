import type { BoardMetadata } from '../../contract/boards';
import { FEED_TABS, type CategoryTabInfo } from '../../contract/documents';
import type { Db } from '../db/schema';
import { feedSeq } from './feed-entries';

/** The icon each feed tab shows (names the UI maps to its icon set). */
const TAB_ICONS: Record<string, string> = {
  rss_news: 'newspaper',
  india_capital_markets: 'landmark',
  us_capital_markets: 'landmark',
  nz_capital_markets: 'landmark',
  research: 'flask',
  webclips: 'scissors',
  documents: 'file-text',
};

/**
 * Tabs with their counts (000 §3): the feed tabs of the contract, which leave out the hidden
 * categories (today, links, media) and split exchanges by market; NZ Exchange only when it
 * holds documents. Feeds and search (search/answer.ts) both answer tabs this way.
 */
export const tabInfos = (counts: ReadonlyMap<string, number>): CategoryTabInfo[] =>
  FEED_TABS.filter((t) => t.key !== 'nz_capital_markets' || counts.get(t.key)).map((t) => ({
    key: t.key,
    label: t.label,
    data: counts.get(t.key) ?? 0,
    icon: TAB_ICONS[t.key] ?? 'file',
  }));

/** A feed's tabs with their counts. */
export async function categoryTabs(db: Db, feedId: string): Promise<CategoryTabInfo[]> {
  const rows = await db
    .selectFrom('feed_entries')
    .select(['tab', (eb) => eb.fn.countAll().as('n')])
    .where('feed_id', '=', feedId)
    .where('removed', '=', 0)
    .groupBy('tab')
    .execute();
  return tabInfos(new Map(rows.map((r) => [r.tab, Number(r.n)])));
}

export async function boardMetadata(
  db: Db,
  feed: { feedId: string; boardId: string; version: number },
  sources: number,
): Promise<BoardMetadata> {
  const tabs = await categoryTabs(db, feed.feedId);
  const newest = await db
    .selectFrom('feed_entries')
    .select((eb) => eb.fn.max('unix').as('unix'))
    .where('feed_id', '=', feed.feedId)
    .where('removed', '=', 0)
    .executeTakeFirst();
  return {
    board_id: feed.boardId,
    count: tabs.reduce((sum, t) => sum + t.data, 0),
    category_tabs: tabs,
    sources,
    newest_unix: newest?.unix == null ? null : Number(newest.unix),
    seq: await feedSeq(db, feed.feedId),
    version: feed.version,
  };
}
