/**
 * Where the PDF viewer puts things (no React, no DOM): every page fitted to the viewer's width
 * one under the other, which pages the scroll position shows (only those are rendered), the
 * cited passage's box on its page, and the canvas resolution a page is drawn at.
 *
 * Units: a page's size and a box are PDF points at scale 1 from the page's top-left corner, y
 * down (what pdf.js's viewport at scale 1 measures and server/extract/pdf.ts writes); the
 * layout is CSS pixels.
 */

export type PageSize = { width: number; height: number };
/** [x0, y0, x1, y1] in points from the page's top-left corner (the `boundingBox` parameter). */
export type Box = readonly [number, number, number, number];

/** Space between pages, CSS px. */
export const PAGE_GAP_PX = 12;
/** Pages rendered beyond those in view, on each side. */
export const OVERSCAN_PAGES = 1;
/**
 * At most this many pages hold a canvas at once, whatever the window's height: with a page
 * about 1,000 px tall, a 300-page document costs a few canvases, never 300.
 */
export const MAX_RENDERED_PAGES = 6;
/** A canvas holds at most this many pixels (a 4x screen would otherwise ask for ~30 MB each). */
export const MAX_CANVAS_PIXELS = 4_000_000;

export type PageLayout = {
  /** Each page's top, CSS px from the top of the first page (index 0 is page 1). */
  tops: number[];
  heights: number[];
  /** CSS px per point for each page (the page fitted to the width). */
  scales: number[];
  total: number;
};

/**
 * The pages one under the other at `width` CSS px wide. A page whose size is not known yet
 * (not loaded) takes `fallback`'s, the size of a page already read, so the document's height
 * is right for the usual document whose pages are all one size.
 */
export function pageLayout(
  count: number,
  sizeOf: (page: number) => PageSize | undefined,
  fallback: PageSize,
  width: number,
): PageLayout {
  const tops: number[] = [];
  const heights: number[] = [];
  const scales: number[] = [];
  let y = 0;
  for (let page = 1; page <= count; page++) {
    const size = sizeOf(page) ?? fallback;
    const scale = width / size.width;
    tops.push(y);
    heights.push(size.height * scale);
    scales.push(scale);
    y += size.height * scale + (page < count ? PAGE_GAP_PX : 0);
  }
  return { tops, heights, scales, total: y };
}

/** The first page whose bottom is below `y` (1-based); the last page past the end. */
function pageAt(layout: PageLayout, y: number): number {
  let lo = 0;
  let hi = layout.tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout.tops[mid] + layout.heights[mid] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/**
 * The pages to render for a scroll position: those in view, `OVERSCAN_PAGES` more on each
 * side, never more than MAX_RENDERED_PAGES (those nearest the view's top kept). 1-based,
 * inclusive; null for an empty document.
 */
export function visiblePages(
  layout: PageLayout,
  scrollTop: number,
  viewHeight: number,
): { first: number; last: number; current: number } | null {
  const count = layout.tops.length;
  if (count === 0) return null;
  const current = pageAt(layout, scrollTop);
  const lastInView = pageAt(layout, scrollTop + Math.max(0, viewHeight - 1));
  const first = Math.max(1, current - OVERSCAN_PAGES);
  const last = Math.min(count, lastInView + OVERSCAN_PAGES, first + MAX_RENDERED_PAGES - 1);
  return { first, last, current };
}

/**
 * A scroll position as a place in the document: the page at the view's top and how far down
 * it the view starts (a fraction of its height), so the same place is shown again after the
 * layout changes (the viewer resized, a page's real size read).
 */
export type ScrollAnchor = { page: number; within: number };

export function anchorAt(layout: PageLayout, scrollTop: number): ScrollAnchor | null {
  if (layout.tops.length === 0) return null;
  const page = pageAt(layout, scrollTop);
  const height = layout.heights[page - 1] || 1;
  return { page, within: Math.max(0, (scrollTop - layout.tops[page - 1]) / height) };
}

export function scrollFor(layout: PageLayout, anchor: ScrollAnchor): number {
  const page = Math.min(Math.max(anchor.page, 1), layout.tops.length);
  if (page === 0) return 0;
  return layout.tops[page - 1] + anchor.within * layout.heights[page - 1];
}

/** Where page `page` starts, CSS px (the scroll position that shows it at the top). */
export const pageTop = (layout: PageLayout, page: number): number =>
  layout.tops[Math.min(Math.max(page, 1), layout.tops.length) - 1] ?? 0;

/**
 * The cited box on its page in CSS px from the page's top-left corner, at `scale` px per point,
 * held inside the page; null when it is empty or lies outside the page.
 */
export function boxOnPage(
  box: Box,
  page: PageSize,
  scale: number,
): { left: number; top: number; width: number; height: number } | null {
  const x0 = Math.max(0, Math.min(box[0], box[2]));
  const y0 = Math.max(0, Math.min(box[1], box[3]));
  const x1 = Math.min(page.width, Math.max(box[0], box[2]));
  const y1 = Math.min(page.height, Math.max(box[1], box[3]));
  if (x1 <= x0 || y1 <= y0) return null;
  return {
    left: x0 * scale,
    top: y0 * scale,
    width: (x1 - x0) * scale,
    height: (y1 - y0) * scale,
  };
}

/**
 * The scroll position that opens the viewer at the cited page: the page's top, or, with a box,
 * the box a third of the way down the view (so the text above it gives context).
 */
export function openingScroll(
  layout: PageLayout,
  page: number,
  box: { top: number; height: number } | null,
  viewHeight: number,
): number {
  const top = pageTop(layout, page);
  if (!box) return top;
  const wanted = top + box.top - viewHeight / 3;
  return Math.max(top, Math.min(wanted, top + box.top));
}

/**
 * The canvas's pixels per point: the page's CSS scale times the device pixel ratio, lowered so
 * the canvas holds at most MAX_CANVAS_PIXELS.
 */
export function canvasScale(page: PageSize, cssScale: number, pixelRatio: number): number {
  const wanted = cssScale * Math.max(1, pixelRatio);
  const pixels = page.width * wanted * page.height * wanted;
  return pixels <= MAX_CANVAS_PIXELS ? wanted : wanted * Math.sqrt(MAX_CANVAS_PIXELS / pixels);
}
