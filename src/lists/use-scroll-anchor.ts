import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { ScrollScale } from './scroll-scale';

/** How far from its old place a row that moved is looked for (rows either side). */
const SEARCH_ROWS = 1000;

type Anchor = { index: number; key: string; delta: number };

/**
 * Keeps what the user reads in place while the list changes under it. After each render, before
 * paint: if the row that was at the top of the view now sits elsewhere (rows were added or
 * removed above it), the list scrolls by the difference; if a scaled list's scale changed (its
 * length did), the element's scroll position is moved so the same rows stay in view. At the very
 * top nothing is anchored, so new rows added there show.
 *
 * The element's own scroll position is the truth here, never a position reported earlier: a
 * render between a scroll and its event must not pull the list back.
 */
export function useScrollAnchor(input: {
  scroller: RefObject<HTMLDivElement | null>;
  scale: ScrollScale;
  rowHeight: number;
  count: number;
  rowKey?: (index: number) => string | undefined;
  /**
   * Rows of measured heights: the row at a position, and where a row starts. Without them
   * every row is rowHeight tall.
   */
  measured?: { indexAt: (position: number) => number; offsetOf: (index: number) => number };
}) {
  const anchor = useRef<Anchor | null>(null);
  const previous = useRef<ScrollScale | null>(null);

  useLayoutEffect(() => {
    const el = input.scroller.current;
    if (!el) return;
    const { scale, rowHeight, rowKey, count, measured } = input;
    const offsetOf = (index: number) => (measured ? measured.offsetOf(index) : index * rowHeight);
    const before = previous.current ?? scale;
    previous.current = scale;
    // Where the user is, in the list's true layout, as the scale they scrolled under reads it.
    const at = before.toVirtual(el.scrollTop);
    let target: number | null = null;

    const held = anchor.current;
    if (held && rowKey) {
      const now = rowKey(held.index);
      if (now !== undefined && now !== held.key) {
        const moved = findRow(rowKey, held.key, held.index, count);
        if (moved !== null) target = offsetOf(moved) + held.delta;
      }
    }
    if (target === null && scale.scaled && before.ratio !== scale.ratio) target = at;
    if (target !== null) {
      const real = scale.toReal(target);
      if (Math.abs(el.scrollTop - real) >= 1) el.scrollTop = real;
    }

    const position = target ?? scale.toVirtual(el.scrollTop);
    const top = measured ? measured.indexAt(position) : Math.floor(position / rowHeight);
    const key = rowKey && position > 0 ? rowKey(top) : undefined;
    anchor.current =
      key === undefined ? null : { index: top, key, delta: position - offsetOf(top) };
  });
}

/** The index near `from` whose row is `key`, or null when it is not among the loaded rows. */
function findRow(
  rowKey: (index: number) => string | undefined,
  key: string,
  from: number,
  count: number,
): number | null {
  for (let d = 1; d <= SEARCH_ROWS; d += 1) {
    if (from + d < count && rowKey(from + d) === key) return from + d;
    if (from - d >= 0 && rowKey(from - d) === key) return from - d;
  }
  return null;
}
