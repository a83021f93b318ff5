import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BoardSort } from '../../../contract/boards';
import type { FeedTabKey } from '../../../contract/documents';
import type { HelpTopic } from '../../lib/help-links';
import { userMessage } from '../../lib/user-message';
import { useFillHeight } from '../../layout/use-fill-height';
import { useWindowedList } from '../../lists/use-windowed-list';
import { VirtualList } from '../../lists/virtual-list';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import { FeedEmptyState } from './empty-state';
import { FeedNotFound, isFeedNotFound } from './feed-not-found';
import type { FeedView } from './feed-view';
import {
  CARD_HEIGHT_DESKTOP,
  CARD_HEIGHT_MOBILE,
  ResultCardView,
  cardLink,
  type BoardEntryRow,
  useReadingLoop,
} from '../documents';
import { RetryAlert } from '../../shell/retry-alert';

/** Rows per window read, and the most blocks held: only about the rows in view are kept. */
const BLOCK = 50;
const MAX_BLOCKS = 6;
/** Relative dates ("5 min ago") move on this often. */
const CLOCK_MS = 60_000;

/**
 * A feed's cards, read from the worker's mirror by windows (feed.window) however long the feed,
 * kept fresh by 'changed' events on its entries and on read state. New documents at the top
 * show at once when the list is at the top; further down, the cards in view stay in place.
 * Mark read/unread is optimistic: the card changes at once, the worker sends it through its
 * outbox and tells every tab, and a failure puts the card back. The keyboard reads through it
 * (use-reading-loop.ts: j/k, o, m), and a preview opened from it steps through it.
 *
 * Mount one per feed, tab and sort (give it a `key`): the window's input is read once.
 */
export function FeedList(props: {
  view: FeedView;
  tab: FeedTabKey | null;
  sort: BoardSort;
  label: string;
  mobile: boolean;
  /** The preview overlay cannot show (tablet and smaller): cards open the full-screen one. */
  fullScreenPreview: boolean;
  sourceLabel?: string;
  /** The empty state's help topic (the view's unless given). */
  help?: HelpTopic | null;
}) {
  useSignals();
  const { client, state, product } = useShell();
  const { view } = props;
  const list = useWindowedList('feed.window', ['feed_entries', 'read_status'], {
    extra: { board: view.board, tab: props.tab, sort: props.sort, source: view.source },
    keyOf: (row) => row.doc_id,
    block: BLOCK,
    maxBlocks: MAX_BLOCKS,
  });
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  const now = useClock();
  // The list reaches the window's bottom (issue 18).
  const fill = useRef<HTMLDivElement>(null);
  useFillHeight(fill);
  const canMarkRead = state.$flags.value.doc_mark_as_read === true;

  // An override stands until the list shows the same state (or another tab changes it again).
  const loaded = list.loaded();
  useEffect(() => {
    if (overrides.size === 0) return;
    const settled = loaded.filter((row) => overrides.get(row.deeplink) === row.read);
    if (settled.length === 0) return;
    setOverrides((was) => {
      const next = new Map(was);
      for (const row of settled) next.delete(row.deeplink);
      return next;
    });
  }, [loaded, overrides]);

  const toggleRead = useCallback(
    (card: BoardEntryRow) => {
      const read = !card.read;
      setOverrides((was) => new Map(was).set(card.deeplink, read));
      client
        .call('doc.setRead', { deeplinks: [card.deeplink], status: read ? 'read' : 'unread' })
        .catch((error: unknown) => {
          setOverrides((was) => {
            const next = new Map(was);
            next.delete(card.deeplink);
            return next;
          });
          showToast('error', userMessage(error));
        });
    },
    [client],
  );

  const row = useCallback(
    (index: number): BoardEntryRow | undefined => {
      const card = list.row(index);
      if (!card) return undefined;
      const read = overrides.get(card.deeplink);
      return read === undefined || read === card.read ? card : { ...card, read };
    },
    [list, overrides],
  );
  const rowKey = useCallback((index: number) => list.row(index)?.doc_id, [list]);

  const total = list.total();
  const { fullScreenPreview } = props;
  const linkOf = useCallback(
    (card: BoardEntryRow) => cardLink(card, view.board, fullScreenPreview, product),
    [view.board, fullScreenPreview, product],
  );
  const loop = useReadingLoop({
    total: total ?? 0,
    row,
    linkOf,
    setRange: list.setRange,
    toggleRead: canMarkRead ? toggleRead : undefined,
    rowsVersion: loaded,
  });
  const failure = list.error();
  if (isFeedNotFound(failure)) return <FeedNotFound />;
  return (
    <div className="feed-list" ref={fill} aria-busy={list.loading() || undefined}>
      {failure !== null ? <RetryAlert error={failure} onRetry={list.refresh} /> : null}
      {total === 0 ? (
        <FeedEmptyState
          family={null}
          help={props.help === undefined ? view.help : props.help}
          sourceLabel={props.sourceLabel}
        />
      ) : null}
      {total ? (
        <VirtualList<BoardEntryRow>
          label={props.label}
          className="feed-cards"
          count={total}
          rowHeight={props.mobile ? CARD_HEIGHT_MOBILE : CARD_HEIGHT_DESKTOP}
          // Cards take their content's height (issue 18): no empty half card.
          measureRows
          row={row}
          rowKey={rowKey}
          scrollToIndex={loop.scrollTo}
          renderRow={(card, index) => (
            <ResultCardView
              card={card}
              selected={loop.selected === index}
              board={view.board}
              mobile={props.mobile}
              fullScreen={props.fullScreenPreview}
              now={now}
              onToggleRead={canMarkRead ? toggleRead : undefined}
            />
          )}
          onRangeChange={loop.onRangeChange}
        />
      ) : null}
    </div>
  );
}

/** The time relative dates are counted from, moving on every minute. */
function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
