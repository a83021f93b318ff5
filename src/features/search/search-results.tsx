import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SearchParams, SearchRow } from '../../../contract/search';
import { userMessage } from '../../lib/user-message';
import { useFillHeight } from '../../layout/use-fill-height';
import { VirtualList } from '../../lists/virtual-list';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import {
  CARD_HEIGHT_DESKTOP,
  CARD_HEIGHT_MOBILE,
  ResultCardView,
  sanitizeHighlightHtml,
  useReadingLoop,
  type CardLink,
} from '../documents';
import { joinSnippets } from './join-snippets';
import { NO_RESULTS_TEXT, resultCountText } from './search-view';
import { retrySearch, useSearchWindow, type SearchAnswer } from './use-search-window';
import { RetryAlert } from '../../shell/retry-alert';

/** Relative dates ("5 min ago") move on this often. */
const CLOCK_MS = 60_000;

/** What the page shows around the list: the latest answer's count, tabs and spelling. */
export type SearchSummary = Omit<SearchAnswer, 'rows' | 'offset'>;

/**
 * A search's results: the count ("About N results" when estimated), a virtualised list of
 * result cards whose text is the highlighted snippets (each card as tall as its content, the list
 * reaching the window's bottom, as the feed's), "No search results found." when there
 * are none, and the spec's failure text with Try again when the search fails. The keyboard
 * reads through the results as through a feed (use-reading-loop.ts), and a preview opened from
 * them steps through them.
 *
 * Mount one per search (`key={searchKey(params)}`).
 */
export function SearchResults(props: {
  params: SearchParams;
  mobile: boolean;
  /** Where a result's title leads (the preview overlay, the full-screen preview, or beside). */
  linkOf: (row: SearchRow) => CardLink;
  /** The deeplink of the result shown beside the list, if any. */
  current?: string | null;
  onSummary: (summary: SearchSummary) => void;
  /** The shown result's row once read, and the first result (the full page selects it). */
  onCurrent?: (current: SearchRow | undefined, first: SearchRow | undefined) => void;
}) {
  useSignals();
  const { client, state } = useShell();
  const list = useSearchWindow(props.params);
  const now = useClock();
  // The list reaches the window's bottom, whatever stands above it (issue 18, as the feed's).
  const fill = useRef<HTMLDivElement>(null);
  useFillHeight(fill);
  const { onSummary, onCurrent, linkOf } = props;

  const summary = list.summary();
  useEffect(() => {
    if (summary) onSummary(summary);
  }, [summary, onSummary]);
  // Rows keep their identity until read again: these change only when the list does.
  const first = list.row(0);
  const current = props.current
    ? list.loaded().find((r) => r.deeplink === props.current)
    : undefined;
  useEffect(() => {
    onCurrent?.(current, first);
  }, [current, first, onCurrent]);

  const row = useCallback((index: number) => list.row(index), [list]);
  const rowKey = useCallback((index: number) => list.row(index)?.doc_id, [list]);
  const total = list.total();
  const failure = list.error();
  // m in the list: the worker marks it (optimistic, through its outbox); the row reads again.
  const toggleRead = useCallback(
    (result: SearchRow) => {
      client
        .call('doc.setRead', {
          deeplinks: [result.deeplink],
          status: result.read ? 'unread' : 'read',
        })
        .then(
          () => list.changed([result.doc_id]),
          (error: unknown) => showToast('error', userMessage(error)),
        );
    },
    [client, list],
  );
  const loop = useReadingLoop({
    total: total ?? 0,
    row,
    linkOf,
    setRange: list.setRange,
    toggleRead: state.$flags.value.doc_mark_as_read === true ? toggleRead : undefined,
    beside: props.current,
    rowsVersion: list.loaded(),
  });

  return (
    <div className="search-results" aria-busy={list.loading() || undefined}>
      {failure !== null ? (
        <RetryAlert error={failure} onRetry={() => retrySearch(client, props.params, list)} />
      ) : null}
      {summary && total !== null ? (
        <p className="search-count" role="status">
          {total === 0 ? NO_RESULTS_TEXT : resultCountText(summary.count, summary.count_exact)}
        </p>
      ) : null}
      <div className="search-fill" ref={fill}>
        {total ? (
          <VirtualList<SearchRow>
            label="Search results"
            className="search-cards"
            count={total}
            rowHeight={props.mobile ? CARD_HEIGHT_MOBILE : CARD_HEIGHT_DESKTOP}
            // Cards take their content's height (issue 18): no empty space under a short snippet.
            measureRows
            row={row}
            rowKey={rowKey}
            scrollToIndex={loop.scrollTo}
            renderRow={(result, index) => (
              <ResultCardView
                card={result}
                board={props.params.board_id ?? ''}
                mobile={props.mobile}
                fullScreen={false}
                now={now}
                open={linkOf(result)}
                current={props.current === result.deeplink}
                selected={loop.selected === index}
                text={
                  result.highlights.length > 0 ? (
                    <Highlights snippets={result.highlights} />
                  ) : undefined
                }
              />
            )}
            onRangeChange={loop.onRangeChange}
          />
        ) : null}
      </div>
    </div>
  );
}

/**
 * A result's highlighted snippets, joined by one ellipsis (joinSnippets: no run of bare ellipses,
 * no fragment that is only punctuation). They are HTML whose only markup is `<em>` around
 * matches; the page keeps exactly that (DOMPurify, an allow-list of em).
 */
export function Highlights(props: { snippets: readonly string[] }) {
  const html = useMemo(
    () => joinSnippets(props.snippets.map((snippet) => sanitizeHighlightHtml(snippet))),
    [props.snippets],
  );
  if (!html) return null;
  return <span className="search-highlights" dangerouslySetInnerHTML={{ __html: html }} />;
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
