import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSearch } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The app loads its screens on demand: loaded first, the tests wait for their own work only. */
beforeAll(() => Promise.all([import('../../src/features/search/search-page')]), 60_000);
beforeEach(() => {
  setViewportWidth(1600);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? 600 : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

describe("the tag facet: the user's own tags", () => {
  it('reads the tags again when the user tags a document (here, in another tab or device)', async () => {
    let answer = [{ key: 'Rates', count: 2 }];
    const { emit } = await renderShell({
      path: '/search?q=rates',
      session: SIGNED_IN,
      handlers: {
        'search.window': createSearch(3),
        'search.tags': () => answer,
        'search.exchanges': () => [],
      },
    });
    const tags = await screen.findByRole('list', { name: 'Tags' });
    await waitFor(() =>
      expect(
        within(tags)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Rates2']),
    );
    answer = [
      { key: 'Rates', count: 3 },
      { key: 'Banking', count: 1 },
    ];
    emit({ type: 'changed', store: 'document_tags', keys: ['d1'] } as never);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Tags' }))
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Rates3', 'Banking1']),
    );
  });
});
