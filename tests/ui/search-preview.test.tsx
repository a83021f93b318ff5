import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearch, rateDetail } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => {
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

function renderSearch(path: string) {
  return renderShell({
    path,
    session: SIGNED_IN,
    handlers: {
      'search.window': createSearch(3),
      'search.tags': () => [],
      'search.exchanges': () => [],
      'doc.get': ({ deeplink }) =>
        rateDetail({ deeplink, title: `Rates story ${deeplink.slice(1)}` }),
    },
  });
}

const marks = (root: HTMLElement) => [...root.querySelectorAll('mark')].map((m) => m.textContent);

describe('opening a result', () => {
  it('opens the preview overlay with the searched words marked', async () => {
    setViewportWidth(1600);
    const { history, calls } = await renderSearch('/search?q=rates');
    fireEvent.click(await screen.findByRole('link', { name: 'Rates story 1' }));
    await waitFor(() => expect(history.location.search).toContain('overlay-type=preview'));
    const query = new URLSearchParams(history.location.search);
    expect(query.get('overlay-deeplink')).toBe('d1');
    expect(query.get('overlay-searchTerm')).toBe('rates');
    expect(query.get('q')).toBe('rates');
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByRole('heading', { level: 3, name: 'Rates story 1' });
    await waitFor(() => expect(marks(panel)).toEqual(['rates', 'Rates']));
    expect(calls.find((c) => c.op === 'doc.get')?.input).toEqual({
      source: 'reuters',
      deeplink: 'd1',
    });
  });

  it('links to the full-screen preview with the search term on a tablet', async () => {
    setViewportWidth(1000);
    await renderSearch('/search?q=rates');
    const link = await screen.findByRole('link', { name: 'Rates story 1' });
    expect(link.getAttribute('href')).toBe(
      '/preview/reuters/d1?category_tab=rss_news&searchTerm=rates',
    );
  });
});

describe('/search/full', () => {
  it("shows the first result's document beside the list, marking its spans", async () => {
    setViewportWidth(1600);
    const { history } = await renderSearch('/search/full?q=rates');
    await waitFor(() =>
      expect(new URLSearchParams(history.location.search).get('deeplink')).toBe('d1'),
    );
    const beside = await screen.findByRole('region', { name: 'Document' });
    await within(beside).findByRole('heading', { level: 3, name: 'Rates story 1' });
    // The result's one span (the first "rates"), not every occurrence of the word.
    await waitFor(() => expect(marks(beside)).toEqual(['rates']));
    const list = screen.getByRole('list', { name: 'Search results' });
    const card = within(list).getByRole('article', { name: 'Rates story 1' });
    expect(card.getAttribute('aria-current')).toBe('true');

    fireEvent.click(within(list).getByRole('link', { name: 'Rates story 2' }));
    await within(beside).findByRole('heading', { level: 3, name: 'Rates story 2' });
    expect(new URLSearchParams(history.location.search).get('deeplink')).toBe('d2');
  });

  it('opens the chosen document over the list on a tablet, and Back returns to the list', async () => {
    setViewportWidth(1000);
    const { history } = await renderSearch('/search/full?q=rates');
    fireEvent.click(await screen.findByRole('link', { name: 'Rates story 2' }));
    const over = await screen.findByRole('dialog', { name: 'Document' });
    await within(over).findByRole('heading', { level: 3, name: 'Rates story 2' });
    fireEvent.click(within(over).getByRole('button', { name: 'Back to results' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Document' })).toBeNull());
    expect(history.location.search).toBe('?q=rates');
  });
});
