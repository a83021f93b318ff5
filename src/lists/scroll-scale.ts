/**
 * Scroll space for lists taller than a browser can lay out. Chromium caps an element's height at
 * 33,554,428 px and Firefox at 17,895,697 px: a 1M-row feed of 200 px rows (200M px) cannot be
 * one scroll area of its true height. Past MAX_SCROLL_PX the list's scroll area keeps that height
 * and positions map linearly between the two spaces, so the first row sits at the top, the last
 * at the bottom, and every row in between comes into view at some scroll position. No DOM here.
 */

/** Chromium's cap on an element's height (px). */
export const CHROMIUM_MAX_ELEMENT_PX = 33_554_428;
/** The tallest scroll area a list uses: below every engine's cap (Firefox's is the lowest). */
export const MAX_SCROLL_PX = 16_000_000;

export type ScrollScale = {
  /** The list's true height: rows x row height (px). */
  virtualHeight: number;
  /** The height of the element that scrolls (px): the true height up to MAX_SCROLL_PX. */
  realHeight: number;
  /** Whether positions are scaled (the true height is over the cap). */
  scaled: boolean;
  /** True px per scrolled px: 1 unless scaled. */
  ratio: number;
  /** A scroll position of the element -> the position in the list's true layout. */
  toVirtual(realOffset: number): number;
  /** A position in the list's true layout -> the element's scroll position. */
  toReal(virtualOffset: number): number;
};

/**
 * The mapping for `count` rows of `rowHeight` px seen through a `viewport` px tall window.
 * Scaled, the scrollable ranges (height minus viewport) map onto each other, so the real
 * maximum scroll position shows the true last screenful.
 */
export function scrollScale(input: {
  count: number;
  rowHeight: number;
  viewport: number;
  max?: number;
}): ScrollScale {
  const max = input.max ?? MAX_SCROLL_PX;
  const virtualHeight = Math.max(0, input.count) * input.rowHeight;
  if (virtualHeight <= max) {
    return {
      virtualHeight,
      realHeight: virtualHeight,
      scaled: false,
      ratio: 1,
      toVirtual: (offset) => offset,
      toReal: (offset) => offset,
    };
  }
  const viewport = Math.max(0, Math.min(input.viewport, max - 1));
  const virtualRange = virtualHeight - viewport;
  const realRange = max - viewport;
  const ratio = virtualRange / realRange;
  const clamp = (n: number, top: number) => Math.min(top, Math.max(0, n));
  return {
    virtualHeight,
    realHeight: max,
    scaled: true,
    ratio,
    toVirtual: (offset) => clamp(offset, realRange) * ratio,
    toReal: (offset) => clamp(offset, virtualRange) / ratio,
  };
}
