import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useId } from 'react';
import { BoardSort, HOME_BOARD } from '../../../contract/boards';
import type { Source } from '../../../contract/sources';
import type { HelpTopic } from '../../lib/help-links';
import { isMobile } from '../../lib/breakpoints';
import { overlayVisible } from '../../lib/overlay';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { SourceHeader, useFollowedSources } from '../sources';
import { UploadsPanel } from '../uploads';
import { FeedActions } from './feed-actions';
import { FeedEmptyState } from './empty-state';
import { ALL_TAB, selectedTab, shownTabs, windowTab, type TabKey } from '../documents';
import { FeedPageDelete } from './delete-feed';
import { FeedList } from './feed-list';
import { MarkAllRead } from './mark-all-read';
import { ShortcutsHelp } from './shortcuts-help';
import { FeedTabsBar, SortMenu, useFeedTabs } from './feed-toolbar';
import { feedViewOf } from './feed-view';

/** An empty source page's help topic, by the source's family. */
const SOURCE_HELP: Record<Source['category'], HelpTopic> = {
  rss_news: 'websites',
  exchanges_groups: 'capital_markets',
};

/**
 * The feed screen for /feeds/home and its suffix views, /feeds/{board} and its sub-views, and
 * /apps/{source} (feed-view.ts says which documents each shows). The tab and the sort live in
 * the address (`category_tab`, `sort`), so a link or a reload opens the same view.
 */
export function FeedPage() {
  const location = useRouterState({ select: (s) => s.location });
  const navigate = useNavigate();
  const panelId = useId();
  const width = useViewportWidth();
  const mobile = isMobile(width);
  const search = location.search as Record<string, unknown>;
  const view = feedViewOf(location.pathname);
  const infos = useFeedTabs(
    view?.board ?? '',
    view?.source ?? null,
    view === null || view.emptyFamily !== null,
  );
  const sources = useFollowedSources();

  if (view === null) return null;
  const requested = typeof search.category_tab === 'string' ? search.category_tab : undefined;
  const parsedSort = BoardSort.safeParse(search.sort);
  const sort: BoardSort = parsedSort.success ? parsedSort.data : 'latest';
  const tabs = infos === null ? null : shownTabs(infos, view.tabs);
  const tab = selectedTab({ requested, offered: view.tabs, tabs });
  const source = view.source ? sources?.find((s) => s.key === view.source) : undefined;

  const setSearch = (patch: Record<string, string | undefined>) =>
    void navigate({
      to: '.',
      search: (prev: Record<string, unknown>) => {
        const next: Record<string, unknown> = { ...prev, ...patch };
        for (const [key, value] of Object.entries(patch)) if (value === undefined) delete next[key];
        return next;
      },
    });
  const selectTab = (key: TabKey) =>
    setSearch({ category_tab: key === ALL_TAB && view.tabs === null ? undefined : key });

  return (
    <section className="feed-page">
      {view.source ? (
        <SourceHeader sourceKey={view.source} source={source} loaded={sources !== null} />
      ) : null}
      {view.emptyFamily === 'drives' ? (
        <UploadsPanel />
      ) : view.emptyFamily !== null ? (
        <FeedEmptyState family={view.emptyFamily} help={view.help} />
      ) : (
        <>
          <div className="feed-toolbar">
            <FeedTabsBar tabs={tabs ?? []} selected={tab} panelId={panelId} onSelect={selectTab} />
            <SortMenu
              value={sort}
              onChange={(next) => setSearch({ sort: next === 'latest' ? undefined : next })}
            />
            {tab !== null ? (
              <MarkAllRead board={view.board} tab={windowTab(tab)} source={view.source} />
            ) : null}
            <FeedActions />
            {view.board !== HOME_BOARD && !view.source ? (
              <FeedPageDelete key={view.board} boardId={view.board} />
            ) : null}
          </div>
          <ShortcutsHelp />
          <div
            id={panelId}
            role="tabpanel"
            aria-labelledby={tab && tabs?.length ? `feed-tab-${tab}` : undefined}
            aria-label={tab && tabs?.length ? undefined : 'Documents'}
          >
            {tab !== null ? (
              <FeedList
                key={`${view.board}|${view.source ?? ''}|${tab}|${sort}`}
                view={view}
                tab={windowTab(tab)}
                sort={sort}
                label="Feed documents"
                mobile={mobile}
                fullScreenPreview={!overlayVisible(width)}
                sourceLabel={view.source ? (source?.label ?? view.source) : undefined}
                help={source ? SOURCE_HELP[source.category] : view.help}
              />
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
