import { useNavigate } from '@tanstack/react-router';
import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import { BOOKMARK_TAG_ID, type TagRow } from '../../../contract/tags';
import { isMobile } from '../../lib/breakpoints';
import { overlayVisible } from '../../lib/overlay';
import { useFillHeight } from '../../layout/use-fill-height';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { routesFor } from '../../lib/routes';
import { useWindowedList } from '../../lists/use-windowed-list';
import { VirtualList } from '../../lists/virtual-list';
import { RetryAlert } from '../../shell/retry-alert';
import { useShell } from '../../shell-context';
import {
  CARD_HEIGHT_DESKTOP,
  CARD_HEIGHT_MOBILE,
  cardLink,
  ResultCardView,
  type BoardEntryRow,
  useReadingLoop,
} from '../documents';
import { useUserTags } from './tag-store';

/** /needlbox/bookmarks/all: the bookmarked documents, as cards that open the preview. */
export function BookmarksPage() {
  return (
    <section className="needlbox-page">
      <TaggedDocuments
        tagId={BOOKMARK_TAG_ID}
        label="Bookmarked documents"
        empty="No bookmarks yet. Bookmark a document from its card or its preview to find it here."
      />
    </section>
  );
}

/** /needlbox/tags/all: the documents carrying any of the user's tags, or one chosen tag. */
export function TagsPage() {
  const tags = useUserTags();
  const [chosen, setChosen] = useState<string | null>(null);
  const current = chosen !== null && tags?.some((t) => t.id === chosen) ? chosen : null;
  return (
    <section className="needlbox-page">
      {tags && tags.length > 0 ? (
        <div className="tag-filter" role="group" aria-label="Show documents tagged">
          <button
            type="button"
            className="pill"
            aria-pressed={current === null}
            onClick={() => setChosen(null)}
          >
            All tags
          </button>
          {tags.map((tag) => (
            <button
              key={tag.id}
              type="button"
              className="pill"
              aria-pressed={current === tag.id}
              onClick={() => setChosen(tag.id)}
            >
              {tag.name}
            </button>
          ))}
        </div>
      ) : null}
      {current !== null ? (
        <SearchInTag name={tags?.find((t) => t.id === current)?.name ?? ''} />
      ) : null}
      <TaggedDocuments
        key={current ?? ''}
        tagId={current ?? undefined}
        label="Tagged documents"
        empty="No tagged documents yet. Tag a document from its card or its preview to find it here."
      />
    </section>
  );
}

/**
 * Search within a tag: the search page narrowed to the documents the user gave this tag (its
 * `tag` parameter, the tag facet; the server reads the user's own tags, search/scope-sql.ts).
 */
function SearchInTag(props: { name: string }) {
  const { product } = useShell();
  const navigate = useNavigate();
  const inputId = useId();
  const [q, setQ] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void navigate({
      to: routesFor(product).search.root,
      search: { ...(q.trim() ? { q: q.trim() } : {}), tag: props.name } as never,
    });
  };
  return (
    <form className="needlbox-search" role="search" onSubmit={submit}>
      <label htmlFor={inputId}>Search in {props.name}</label>{' '}
      <input
        id={inputId}
        type="search"
        value={q}
        placeholder={`Search documents tagged ${props.name}`}
        onChange={(event) => setQ(event.target.value)}
      />{' '}
      <button type="submit" className="button secondary small">
        Search
      </button>
    </form>
  );
}

/** Rows per window read, and the most blocks held (as the feed: only about the rows in view). */
const BLOCK = 50;
const MAX_BLOCKS = 6;

/**
 * A tag page is a feed: the documents of one tag (or of any tag but the bookmark), newest first,
 * read from the worker's mirror by windows (tags.window: the mirror's (tag, time) index) however
 * many the tag holds, virtualised, and kept fresh by 'changed' events on the links (a toggle
 * here, in another tab, or from the server) and on read state. Offline, it reads the mirror.
 */
function TaggedDocuments(props: { tagId?: string; label: string; empty: string }) {
  const { product } = useShell();
  const width = useViewportWidth();
  const mobile = isMobile(width);
  const fullScreen = !overlayVisible(width);
  const list = useWindowedList('tags.window', ['document_tags', 'read_status'], {
    extra: props.tagId ? { tag_id: props.tagId } : {},
    keyOf: (row) => row.deeplink,
    block: BLOCK,
    maxBlocks: MAX_BLOCKS,
  });
  // The list reaches the window's bottom (issue 18).
  const fill = useRef<HTMLDivElement>(null);
  useFillHeight(fill);
  const [now] = useState(() => new Date());
  const card = useCallback((index: number) => list.row(index)?.card ?? undefined, [list]);
  const rowKey = useCallback((index: number) => list.row(index)?.deeplink, [list]);
  const linkOf = useCallback(
    (row: BoardEntryRow) => cardLink(row, '', fullScreen, product),
    [fullScreen, product],
  );
  const total = list.total();
  const loop = useReadingLoop({
    total: total ?? 0,
    row: card,
    linkOf,
    setRange: list.setRange,
    rowsVersion: list.loaded(),
  });
  const failure = list.error();
  return (
    <div className="feed-list needlbox-list" ref={fill} aria-busy={list.loading() || undefined}>
      {failure !== null ? <RetryAlert error={failure} onRetry={list.refresh} /> : null}
      {total === null && failure === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}
      {total === 0 ? <p className="needlbox-empty muted">{props.empty}</p> : null}
      {total ? (
        <VirtualList<TagRow>
          label={props.label}
          className="feed-cards needlbox-cards"
          count={total}
          rowHeight={mobile ? CARD_HEIGHT_MOBILE : CARD_HEIGHT_DESKTOP}
          measureRows
          row={list.row}
          rowKey={rowKey}
          scrollToIndex={loop.scrollTo}
          renderRow={(row, index) =>
            row.card ? (
              <ResultCardView
                card={row.card}
                selected={loop.selected === index}
                board=""
                mobile={mobile}
                fullScreen={fullScreen}
                now={now}
              />
            ) : (
              <p className="muted">
                A document you may no longer see (its source is not followed), or not known to this
                device yet.
              </p>
            )
          }
          onRangeChange={loop.onRangeChange}
        />
      ) : null}
    </div>
  );
}
