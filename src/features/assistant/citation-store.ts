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
 * 8 "Performance"): a context value that changed when DONE brought the citations made every one
 * of thousands of markers, in every block, render again. Each marker subscribes to its own
 * number and renders again only when its link changes; a click looks the citation up at the
 * time (`open`), so no marker holds a handler that changes.
 */
export type CitationStore = {
  set(links: CitationLinks): void;
  subscribe(listener: () => void): () => void;
  /** Marker n's link; the same object while it does not change. */
  link(n: string): MarkerLink | null;
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
    // Unchanged links keep their object: their markers do not render again.
    next.set(n, old && old.href === href && old.title === title ? old : { href, title });
  }
  return next;
}

/**
 * Markers told at once when the links change; the rest are told in later tasks of this many,
 * so a long answer's thousands of markers gaining their links at DONE never make one long task
 * (the final text paints first; the links follow within a few frames).
 */
const MARKERS_PER_TASK = 150;

export function createCitationStore(initial: CitationLinks = NO_CITATIONS): CitationStore {
  let links = initial;
  let byN = markerLinks(initial, new Map());
  const listeners = new Set<() => void>();
  let queue: Array<() => void> = [];
  const pump = () => {
    const now = queue.slice(0, MARKERS_PER_TASK);
    queue = queue.slice(MARKERS_PER_TASK);
    for (const listener of now) if (listeners.has(listener)) listener();
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
      queue = [...listeners];
      if (idle) pump();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    link: (n) => byN.get(n) ?? null,
    open(n) {
      const citation = links.byId.get(n);
      if (!citation || !byN.has(n)) return false;
      links.open(citation);
      return true;
    },
  };
}
