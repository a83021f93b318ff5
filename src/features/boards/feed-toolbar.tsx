import { useEffect, useState } from 'react';
import { BOARD_SORTS, type BoardSort } from '../../../contract/boards';
import type { CategoryTabInfo } from '../../../contract/documents';
import { formatCount } from '../../lib/format';
import { useShell } from '../../shell-context';
import type { ShownTab, TabKey } from '../documents';

/** What the sort menu says for each of the contract's feed sorts (002 §2). */
const FEED_SORT_LABELS: Record<BoardSort, string> = {
  latest: 'Latest first',
  oldest: 'Oldest first',
  company_asc: 'Company A to Z',
  company_desc: 'Company Z to A',
  category_asc: 'Category A to Z',
  category_desc: 'Category Z to A',
  priority: 'Priority people first',
};

/** Tab counts move with every page the worker mirrors: re-read them at most this often. */
const TABS_REREAD_MS = 300;

/**
 * A feed's category tabs with their counts (feed.tabs), re-read when its entries change. Null
 * until the first answer; a failed read counts as no tabs (the list still shows its documents).
 */
export function useFeedTabs(board: string, source: string | null, skip: boolean) {
  const { client } = useShell();
  const [infos, setInfos] = useState<CategoryTabInfo[] | null>(null);
  useEffect(() => {
    if (skip) return undefined;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      client.call('feed.tabs', { board, source }).then(
        (answer) => alive && setInfos(answer),
        () => alive && setInfos((was) => was ?? []),
      );
    void load();
    const stop = client.onEvent((event) => {
      if (event.type !== 'changed' || event.store !== 'feed_entries' || timer !== undefined) return;
      // At most one read per interval, even while changes keep coming (a long backfill).
      timer = setTimeout(() => {
        timer = undefined;
        void load();
      }, TABS_REREAD_MS);
    });
    return () => {
      alive = false;
      clearTimeout(timer);
      stop();
    };
  }, [client, board, source, skip]);
  return infos;
}

/** The category tabs (000 §3): one per kind of document, each with its count. */
export function FeedTabsBar(props: {
  tabs: readonly ShownTab[];
  selected: TabKey | null;
  panelId: string;
  onSelect: (key: TabKey) => void;
}) {
  if (props.tabs.length === 0) return null;
  return (
    <div className="feed-tabs" role="tablist" aria-label="Categories">
      {props.tabs.map((tab) => {
        const selected = tab.key === props.selected;
        return (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`feed-tab-${tab.key}`}
            aria-selected={selected}
            aria-controls={props.panelId}
            tabIndex={selected ? 0 : -1}
            className={selected ? 'feed-tab selected' : 'feed-tab'}
            onClick={() => props.onSelect(tab.key)}
            onKeyDown={(event) => {
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const i = props.tabs.indexOf(tab);
              const step = event.key === 'ArrowRight' ? 1 : -1;
              const next = props.tabs[(i + step + props.tabs.length) % props.tabs.length];
              props.onSelect(next.key);
              document.getElementById(`feed-tab-${next.key}`)?.focus();
            }}
          >
            <span className="feed-tab-label">{tab.label}</span>{' '}
            <span className="feed-tab-count">{formatCount(tab.count)}</span>
          </button>
        );
      })}
    </div>
  );
}

/** The sort options of 002 §9 that apply to a feed's documents. */
export function SortMenu(props: { value: BoardSort; onChange: (sort: BoardSort) => void }) {
  return (
    <label className="sort-menu">
      <span>Sort by</span>
      <select
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value as BoardSort)}
      >
        {BOARD_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {FEED_SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </label>
  );
}
