import type { Citation } from '../../../contract/assistant';

/** What `[n]` markers open: the answer's citations, and how to show one. */
export type CitationLinks = {
  byId: ReadonlyMap<string, Citation>;
  /** The in-app address of a citation, or null when it makes no link. */
  hrefOf: (citation: Citation) => string | null;
  open: (citation: Citation) => void;
};

/** What marker n shows when its citation makes a link. */
export type MarkerLink = { readonly href: string; readonly title: string };

/**
 * The answer's citations for its `[n]` markers, as a store whose identity never changes (issue
 * 8 "Performance"). A marker is rendered once by React as `<a data-cite="n">` and never again
 * for its link: the store sets the link's attributes (href, title, aria-label) on the marker
 * elements itself, when a marker mounts (`attach`) and when the links change (`set`). DONE's
 * citations reaching thousands of markers is then a loop of attribute writes, in tasks of a
 * bounded size after the final text is painted, not thousands of React renders. A click looks
 * the citation up at the time (`open`), so no marker holds a handler that changes.
 */
export type CitationStore = {
  set(links: CitationLinks): void;
  /** Marker n's element: given its link now and whenever the links change; returns the detach. */
  attach(element: HTMLAnchorElement, n: string): () => void;
  /** Opens citation n; false when it makes no link (the click is left alone). */
  open(n: string): boolean;
};

export const NO_CITATIONS: CitationLinks = {
  byId: new Map(),
  hrefOf: () => null,
  open: () => {},
};

function markerLinks(
  links: CitationLinks,
  before: ReadonlyMap<string, MarkerLink>,
): Map<string, MarkerLink> {
  const next = new Map<string, MarkerLink>();
  for (const [n, citation] of links.byId) {
    const href = links.hrefOf(citation);
    if (!href) continue;
    const old = before.get(n);
    const title = citation.title_label;
    // Unchanged links keep their object: their markers are not written again.
    next.set(n, old && old.href === href && old.title === title ? old : { href, title });
  }
  return next;
}

/** A marker element showing `link`: a link to the cited passage, or its number alone. */
function write(element: HTMLAnchorElement, n: string, link: MarkerLink | null) {
  if (link) {
    element.setAttribute('href', link.href);
    element.setAttribute('title', link.title);
    element.setAttribute('aria-label', `Source ${n}: ${link.title}`);
  } else {
    element.removeAttribute('href');
    element.removeAttribute('title');
    element.removeAttribute('aria-label');
  }
}

/**
 * When the links change, markers are written in tasks of at most this many and this long (the
 * rest in later tasks), so a long answer's markers gaining their links at DONE never make one
 * long task, even on a busy machine where writing a marker takes longer.
 */
const MARKERS_PER_TASK = 200;
const TASK_BUDGET_MS = 8;

type Marker = { n: string; shown: MarkerLink | null };

export function createCitationStore(initial: CitationLinks = NO_CITATIONS): CitationStore {
  let links = initial;
  let byN = markerLinks(initial, new Map());
  const markers = new Map<HTMLAnchorElement, Marker>();
  let queue: HTMLAnchorElement[] = [];
  const show = (element: HTMLAnchorElement) => {
    const marker = markers.get(element);
    if (!marker) return;
    const link = byN.get(marker.n) ?? null;
    if (link === marker.shown) return;
    marker.shown = link;
    write(element, marker.n, link);
  };
  const pump = () => {
    const started = performance.now();
    let done = 0;
    while (done < queue.length && done < MARKERS_PER_TASK) {
      show(queue[done]);
      done += 1;
      if (performance.now() - started >= TASK_BUDGET_MS) break;
    }
    queue = queue.slice(done);
    if (queue.length > 0) setTimeout(pump, 0);
  };
  return {
    set(next) {
      if (next === links) return;
      links = next;
      const before = byN;
      byN = markerLinks(next, before);
      const changed =
        before.size !== byN.size || [...byN].some(([n, link]) => before.get(n) !== link);
      if (!changed) return;
      const idle = queue.length === 0;
      queue = [...markers.keys()];
      if (idle) pump();
    },
    attach(element, n) {
      markers.set(element, { n, shown: null });
      show(element);
      return () => {
        markers.delete(element);
      };
    },
    open(n) {
      const citation = links.byId.get(n);
      if (!citation || !byN.has(n)) return false;
      links.open(citation);
      return true;
    },
  };
}
