import { useLayoutEffect, type RefObject } from 'react';

/**
 * Lets a list reach the bottom of the window, whatever stands above it (breadcrumbs, a header
 * that wraps, a toolbar on two lines): writes the element's distance from the top of the page
 * to its `--fill-top` custom property, which the stylesheet subtracts from the window's height
 * (`height: calc(100dvh - var(--fill-top))`). Re-measured when the window or the page above
 * changes size.
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      el.style.setProperty('--fill-top', `${Math.max(0, Math.round(top))}px`);
    };
    measure();
    window.addEventListener('resize', measure);
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => measure());
    const main = el.closest('main');
    if (observer && main) for (const child of Array.from(main.children)) observer.observe(child);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [ref]);
}
