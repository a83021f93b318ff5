/**
 * Screen-size classes. The spec names tablet and laptop classes without pixel values (000 §2,
 * §4); these limits are ours, inclusive upper bounds in CSS pixels of the viewport width.
 */
export const BREAKPOINTS = { mobile: 767, tablet: 1024, laptop: 1440 } as const;

export function isMobile(widthPx: number): boolean {
  return widthPx <= BREAKPOINTS.mobile;
}

/** Tablet and smaller: the navigation starts closed and overlays are not shown. */
export function isTablet(widthPx: number): boolean {
  return widthPx <= BREAKPOINTS.tablet;
}

/** Laptop and smaller: an overlay closing does not reopen the navigation. */
export function isLaptopOrSmaller(widthPx: number): boolean {
  return widthPx <= BREAKPOINTS.laptop;
}
