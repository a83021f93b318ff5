import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Citation } from '../../contract/assistant';
import {
  createCitationStore,
  type CitationLinks,
} from '../../src/features/assistant/citation-store';
import { citation } from './assistant-chat-fixtures';

/**
 * The [n] markers' links: written by the citation store on the marker elements (not by React
 * rendering them again), to markers mounted before the citations came and after.
 */

/** Links to every citation but those of `unlinked` (citation 3 by default). */
const linksOf = (citations: Citation[], unlinked = ['3']): CitationLinks => ({
  byId: new Map(citations.map((c) => [c.id, c])),
  hrefOf: (c) => (unlinked.includes(c.id) ? null : `/preview/${c.source}/${c.document_id}`),
  open: () => {},
});

const marker = () => document.createElement('a');

describe('citation store', () => {
  it('links the markers when the citations come, and a marker mounted later at once', () => {
    const store = createCitationStore();
    const early = marker();
    store.attach(early, '1');
    expect(early.hasAttribute('href')).toBe(false);

    store.set(linksOf([citation('1'), citation('3')]));
    expect(early.getAttribute('href')).toBe('/preview/reuters/d1');
    expect(early.getAttribute('aria-label')).toBe('Source 1: Rates story 1');
    expect(early.getAttribute('title')).toBe('Rates story 1');

    const late = marker();
    store.attach(late, '1');
    expect(late.getAttribute('href')).toBe('/preview/reuters/d1');
    // A citation that makes no link leaves its marker a number.
    const none = marker();
    store.attach(none, '3');
    expect(none.hasAttribute('href')).toBe(false);
    expect(store.open('3')).toBe(false);
    expect(store.open('1')).toBe(true);
  });

  it('takes a link away when it goes, and leaves detached markers alone', () => {
    const store = createCitationStore(linksOf([citation('1'), citation('2')]));
    const one = marker();
    const two = marker();
    store.attach(one, '1');
    const detach = store.attach(two, '2');
    expect(two.getAttribute('href')).toBe('/preview/reuters/d2');
    detach();

    store.set(linksOf([citation('2')]));
    expect(one.hasAttribute('href')).toBe(false);
    expect(one.hasAttribute('aria-label')).toBe(false);

    store.set(linksOf([citation('2', { document_id: 'other' })]));
    expect(two.getAttribute('href')).toBe('/preview/reuters/d2');
  });

  const twelveLinked = () =>
    linksOf(
      Array.from({ length: 12 }, (_, i) => citation(String(i + 1))),
      [],
    );
  const linkedCount = (markers: HTMLAnchorElement[]) =>
    markers.filter((m) => m.hasAttribute('href')).length;

  it('links thousands of markers in tasks of 200, all of them in the end', async () => {
    // A clock that stands still: only the count bounds a task.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(0);
    try {
      const store = createCitationStore();
      const markers = Array.from({ length: 1_500 }, () => marker());
      markers.forEach((m, i) => store.attach(m, String((i % 12) + 1)));

      store.set(twelveLinked());
      // The first task writes 200, not all: the rest follow in later tasks.
      expect(linkedCount(markers)).toBe(200);
      await waitFor(() => expect(markers.every((m) => m.hasAttribute('href'))).toBe(true));
      expect(markers[13].getAttribute('aria-label')).toBe('Source 2: Rates story 2');
    } finally {
      clock.mockRestore();
    }
  });

  it('ends a task after 8 ms of writing, however few markers it wrote', async () => {
    // Each marker written takes 1 ms, however often the store looks at the clock: the eighth
    // takes the task to 8 ms.
    const markers = Array.from({ length: 100 }, () => marker());
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => linkedCount(markers));
    try {
      const store = createCitationStore();
      markers.forEach((m, i) => store.attach(m, String((i % 12) + 1)));

      store.set(twelveLinked());
      expect(linkedCount(markers)).toBe(8);
      await waitFor(() => expect(linkedCount(markers)).toBe(100));
    } finally {
      clock.mockRestore();
    }
  });
});
