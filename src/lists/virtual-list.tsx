import {
  elementScroll,
  measureElement,
  observeElementOffset,
  useVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { scrollScale, type ScrollScale } from './scroll-scale';
import { useScrollAnchor } from './use-scroll-anchor';

/**
 * A virtualised list (@tanstack/react-virtual): only the rows in view, plus a few either side,
 * are in the DOM, however long the list. Rows have one fixed height, so a 100k-row list scrolls
 * to any place without measuring what it has not shown; with `measureRows` the rows shown take
 * their content's height and the rest keep the estimate. Rows not loaded yet show a placeholder.
 *
 * Lists taller than a browser can lay out (1M rows) scroll through a scaled scroll area
 * (scroll-scale.ts): the virtualizer works in the list's true layout, the element in its capped
 * one, and rows are placed relative to the element's scroll position.
 *
 * With `rowKey`, the rows in view stay in view when rows are added above them (new documents at
 * the top of a feed): the list scrolls by what was added. At the very top it stays at the top,
 * so new rows show.
 *
 * The list is its own scroll area: focusable, so the keyboard scrolls it too. Each row is a
 * listitem that tells assistive technology its place in the whole list (aria-posinset/setsize).
 */
export function VirtualList<Row>(props: {
  /** The list's accessible name. */
  label: string;
  count: number;
  rowHeight: number;
  row: (index: number) => Row | undefined;
  renderRow: (row: Row, index: number) => ReactNode;
  /** Shown where a row is not loaded yet. */
  renderPlaceholder?: (index: number) => ReactNode;
  /** The rows in view changed: `start` inclusive, `end` exclusive (overscan included). */
  onRangeChange: (start: number, end: number) => void;
  /** A loaded row's identity, to keep the rows in view in place when rows are added above. */
  rowKey?: (index: number) => string | undefined;
  overscan?: number;
  className?: string;
  /** A place to bring into view (the selected row), whenever it changes. */
  scrollToIndex?: number | null;
  /**
   * Rows take the height of their content (rowHeight is then the estimate for rows not shown
   * yet). Only while the list is not scaled: a list longer than a browser lays out keeps one
   * height per row.
   */
  measureRows?: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const scale = useRef<ScrollScale>(
    scrollScale({ count: props.count, rowHeight: props.rowHeight, viewport: 0 }),
  );
  const measuring =
    props.measureRows === true &&
    !scrollScale({ count: props.count, rowHeight: props.rowHeight, viewport: 0 }).scaled;
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({
    count: props.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.rowHeight,
    overscan: props.overscan ?? 5,
    // A row that has no layout yet (hidden, or a test's DOM) keeps its estimate.
    measureElement: (element, entry, instance) => {
      const size = measureElement(element, entry, instance);
      return size > 0 ? size : props.rowHeight;
    },
    // The virtualizer sees positions in the list's true layout; the element scrolls its own.
    observeElementOffset: (instance, report) =>
      observeElementOffset(instance, (offset, scrolling) =>
        report(scale.current.toVirtual(offset), scrolling),
      ),
    scrollToFn: (offset, options, instance) =>
      elementScroll(
        scale.current.toReal(offset + (options.adjustments ?? 0)),
        { behavior: options.behavior },
        instance,
      ),
  });
  scale.current = scrollScale({
    count: props.count,
    rowHeight: props.rowHeight,
    viewport: virtualizer.scrollRect?.height ?? 0,
  });
  const current = scale.current;

  // A new row height (a narrower screen) re-lays out every row.
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, props.rowHeight]);

  const { scrollToIndex } = props;
  useEffect(() => {
    if (scrollToIndex !== null && scrollToIndex !== undefined && scrollToIndex < props.count) {
      virtualizer.scrollToIndex(scrollToIndex, { align: 'auto' });
    }
    // Only a new place scrolls: the list growing must not pull the view back to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollToIndex, virtualizer]);

  useScrollAnchor({
    scroller,
    scale: current,
    rowHeight: props.rowHeight,
    count: props.count,
    rowKey: props.rowKey,
    measured: measuring
      ? {
          indexAt: (position) => virtualizer.getVirtualItemForOffset(position)?.index ?? 0,
          offsetOf: (index) => virtualizer.measurementsCache[index]?.start ?? 0,
        }
      : undefined,
  });

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  const { onRangeChange } = props;
  useEffect(() => {
    if (last >= first) onRangeChange(first, last + 1);
  }, [first, last, onRangeChange]);

  // Rows sit where the element's scroll position shows them (equal to their layout place
  // unless the list is scaled).
  const layoutOffset = virtualizer.scrollOffset ?? 0;
  const shift = current.toReal(layoutOffset) - layoutOffset;

  return (
    <div
      ref={scroller}
      className={props.className ? `virtual-list ${props.className}` : 'virtual-list'}
      tabIndex={0}
      role="list"
      aria-label={props.label}
      data-scaled={current.scaled || undefined}
    >
      <div
        className="virtual-list-inner"
        style={{ height: measuring ? virtualizer.getTotalSize() : current.realHeight }}
      >
        {items.map((item) => {
          const row = props.row(item.index);
          return (
            <div
              // Rows are places in the list: the row at a place changes as the list does.
              key={item.index}
              role="listitem"
              aria-setsize={props.count}
              aria-posinset={item.index + 1}
              aria-busy={row === undefined || undefined}
              className="virtual-row"
              data-index={item.index}
              ref={measuring ? virtualizer.measureElement : undefined}
              style={{
                height: measuring ? undefined : item.size,
                transform: `translateY(${item.start + shift}px)`,
              }}
            >
              {row === undefined
                ? (props.renderPlaceholder?.(item.index) ?? <SkeletonRow />)
                : props.renderRow(row, item.index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** A row not loaded yet: grey bars where its text will be. */
export function SkeletonRow() {
  return (
    <div className="skeleton-row">
      <span className="skeleton-line wide" />
      <span className="skeleton-line" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
