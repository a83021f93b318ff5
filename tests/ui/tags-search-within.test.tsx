import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEED_FLAGS } from './feed-fixtures';
import { createSearch } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The app loads its screens on demand: loaded first, the tests wait for their own work only. */
beforeAll(
  () =>
    Promise.all([
      import('../../src/features/tags/needlbox-page'),
      import('../../src/features/search/search-page'),
    ]),
  60_000,
);
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

const tag = (id: string, name: string) => ({ id, name, created_at: '2025-03-03T10:00:00.000Z' });

describe('searching within a tag', () => {
  it("opens the search narrowed to the chosen tag's documents", async () => {
    const { history, calls } = await renderShell({
      path: '/needlbox/tags/all',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'tags.list': () => [tag('t1', 'Macro'), tag('t2', 'Rates')],
        'tags.window': () => ({ offset: 0, rows: [], total: 0 }),
        'search.window': createSearch(2),
        'search.tags': () => [{ key: 'Rates', count: 2 }],
        'search.exchanges': () => [],
      },
    });
    // Only once a tag is chosen.
    expect(screen.queryByLabelText(/^Search in/)).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Rates' }));
    fireEvent.change(await screen.findByLabelText('Search in Rates'), {
      target: { value: ' repo ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(history.location.pathname).toBe('/search'));
    expect(history.location.search).toBe('?q=repo&tag=Rates');
    await waitFor(() =>
      expect(
        calls.filter((c) => c.op === 'search.window').at(-1)?.input as {
          params: { q: string; filter: unknown };
        },
      ).toMatchObject({ params: { q: 'repo', filter: { tags: ['Rates'] } } }),
    );
  });
});
