import {
  FEED_TABS,
  HIDDEN_CATEGORY_TABS,
  type CategoryTabInfo,
  type FeedTabKey,
} from '../../../contract/documents';

/**
 * The category tabs a feed view shows (000 §3, 002 §2). The worker answers the feed's tabs with
 * counts; the view keeps the ones it offers, in FEED_TABS order with FEED_TABS labels (so
 * exchanges read as Indian Exchange and US Exchange), never the hidden categories (today, links,
 * media). No React, no DOM.
 */

/** The tab of every document of the feed. */
export const ALL_TAB = 'all';
export type TabKey = FeedTabKey | typeof ALL_TAB;
export type ShownTab = { key: TabKey; label: string; count: number };

const HIDDEN: ReadonlySet<string> = new Set(HIDDEN_CATEGORY_TABS);
/** Tabs shown only when they hold documents (NZX filings: contract/documents.ts FEED_TABS). */
const ONLY_WITH_DOCUMENTS: ReadonlySet<string> = new Set(['nz_capital_markets']);

/**
 * The tabs to show. `offered` null is a whole feed: an "All" tab first (the feed's count), then
 * every tab that holds documents. A list is a narrowed view (/feeds/home/exchanges): exactly
 * those tabs, with their counts, even at zero (the user asked for them), except a tab shown
 * only when it has documents.
 */
export function shownTabs(
  infos: readonly CategoryTabInfo[],
  offered: readonly FeedTabKey[] | null,
): ShownTab[] {
  const counts = new Map<string, number>();
  for (const info of infos) {
    if (!HIDDEN.has(info.key)) counts.set(info.key, (counts.get(info.key) ?? 0) + info.data);
  }
  const tabs: ShownTab[] = [];
  for (const tab of FEED_TABS) {
    const count = counts.get(tab.key) ?? 0;
    const wanted = offered === null ? count > 0 : offered.includes(tab.key);
    if (!wanted || (ONLY_WITH_DOCUMENTS.has(tab.key) && count === 0)) continue;
    tabs.push({ key: tab.key, label: tab.label, count });
  }
  if (offered !== null) return tabs;
  const total = tabs.reduce((sum, tab) => sum + tab.count, 0);
  return [{ key: ALL_TAB, label: 'All', count: total }, ...tabs];
}

/**
 * The tab a view opens on: the one the address names when the view offers it; else "All" for a
 * whole feed; else the first offered tab with documents, or the first offered tab. Null while
 * the choice needs counts that have not arrived (several tabs offered).
 */
export function selectedTab(input: {
  requested: string | undefined;
  offered: readonly FeedTabKey[] | null;
  tabs: readonly ShownTab[] | null;
}): TabKey | null {
  const { requested, offered, tabs } = input;
  if (requested !== undefined) {
    const allowed = offered === null ? requested === ALL_TAB || isFeedTab(requested) : false;
    if (allowed || (offered?.includes(requested as FeedTabKey) ?? false)) {
      return requested as TabKey;
    }
  }
  if (offered === null) return ALL_TAB;
  if (offered.length === 1) return offered[0];
  if (tabs === null) return null;
  return (tabs.find((t) => t.count > 0) ?? tabs[0])?.key ?? offered[0] ?? null;
}

/** The `tab` of a window read: null reads every tab. */
export const windowTab = (tab: TabKey): FeedTabKey | null => (tab === ALL_TAB ? null : tab);

export const isFeedTab = (key: string): key is FeedTabKey => FEED_TABS.some((t) => t.key === key);
