import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A virtualised list (@tanstack/react-virtual): only the rows in view, plus a few either side,
 * are in the DOM, however long the list. Rows have one fixed height, so a 100k-row list scrolls
 * to any place without measuring what it has not shown. Rows not loaded yet show a placeholder.
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
  overscan?: number;
  className?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.rowHeight,
    overscan: props.overscan ?? 5,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;

  const { onRangeChange } = props;
  useEffect(() => {
    if (last >= first) onRangeChange(first, last + 1);
  }, [first, last, onRangeChange]);

  return (
    <div
      ref={scroller}
      className={props.className ? `virtual-list ${props.className}` : 'virtual-list'}
      tabIndex={0}
      role="list"
      aria-label={props.label}
    >
      <div className="virtual-list-inner" style={{ height: virtualizer.getTotalSize() }}>
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
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
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
