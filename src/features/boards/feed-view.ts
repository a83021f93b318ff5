import { HOME_BOARD } from '../../../contract/boards';
import { FEED_TABS, type FeedTabKey } from '../../../contract/documents';
import type { HelpTopic } from '../../lib/help-links';
import { pathSegments } from '../../lib/path';
import { FEED_HOME_SUFFIXES, type FeedHomeSuffix } from '../../lib/routes';

/**
 * Which documents a feed route shows (000 §2, 002 §2). No React, no DOM.
 *
 * - /feeds/home: every followed source, all tabs. Its suffixes filter by source family:
 *   rss_news is the News tab, exchanges the exchange tabs (Indian, US and NZ Exchange), webclips
 *   the Web Clips tab; chats, emails, socialmedia, drives and notes are families no source here
 *   provides yet, so they show their empty state.
 * - /feeds/{boardId}: a custom or AI feed; /feeds/{boardId}/{sub}: documents and webclips are
 *   their tabs, a family suffix filters as on home; links and media are categories the feed
 *   never shows (000 §3 hides them), so they show the empty state.
 * - /apps/{source} (and /apps/{source}/{sub}): one source's documents from the home feed.
 */
export type FeedView = {
  /** The feed read: `home` or a board id. */
  board: string;
  /** Only this source's documents (/apps/{source}), else null. */
  source: string | null;
  /** The tabs the view offers, in order; null offers every tab with an "All" tab first. */
  tabs: readonly FeedTabKey[] | null;
  /** Set when nothing here can hold documents: the empty state shows at once. */
  emptyFamily: string | null;
  /** Where the empty state's help link points. */
  help: HelpTopic | null;
};

const EXCHANGE_TABS = FEED_TABS.filter((t) => t.category_tab === 'exchanges').map((t) => t.key);

/** Families of /feeds/home with documents here, and the tabs that hold them. */
const FAMILY_TABS: Partial<Record<FeedHomeSuffix, readonly FeedTabKey[]>> = {
  rss_news: ['rss_news'],
  exchanges: EXCHANGE_TABS,
  webclips: ['webclips'],
};

const FAMILY_HELP: Partial<Record<FeedHomeSuffix, HelpTopic>> = {
  rss_news: 'websites',
  exchanges: 'capital_markets',
  webclips: 'browser_extension',
};

/** Sub-views of a feed that are category tabs of their own. */
const SUB_TABS: Record<string, readonly FeedTabKey[]> = {
  documents: ['documents'],
  webclips: ['webclips'],
};
/** Sub-views whose categories are hidden (000 §3): never any documents. */
const HIDDEN_SUBS = new Set(['links', 'media']);

const isFamily = (s: string): s is FeedHomeSuffix =>
  (FEED_HOME_SUFFIXES as readonly string[]).includes(s);

function narrowed(
  base: Omit<FeedView, 'tabs' | 'emptyFamily' | 'help'>,
  sub: string | undefined,
): FeedView {
  const whole: FeedView = { ...base, tabs: null, emptyFamily: null, help: null };
  if (sub === undefined) return whole;
  if (isFamily(sub)) {
    const tabs = FAMILY_TABS[sub];
    return tabs
      ? { ...whole, tabs, help: FAMILY_HELP[sub] ?? null }
      : { ...whole, tabs: [], emptyFamily: sub };
  }
  if (Object.hasOwn(SUB_TABS, sub)) {
    return { ...whole, tabs: SUB_TABS[sub], help: sub === 'webclips' ? 'browser_extension' : null };
  }
  if (HIDDEN_SUBS.has(sub)) return { ...whole, tabs: [], emptyFamily: sub };
  return whole;
}

/** The view of a feed route, or null for a path that is not one. */
export function feedViewOf(pathname: string): FeedView | null {
  const [category, source, sub, ...rest] = pathSegments(pathname);
  if (rest.length > 0 || source === undefined) return null;
  if (category === 'feeds') return narrowed({ board: source, source: null }, sub);
  if (category === 'apps') return narrowed({ board: HOME_BOARD, source }, sub);
  return null;
}
