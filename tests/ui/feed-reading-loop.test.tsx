import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentDetail } from '../../contract/documents';
import { clearReadingList } from '../../src/features/documents/reading-list';
import { FEED_FLAGS, createFeed, storyCard } from './feed-fixtures';
import { createSearch, rateDetail } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => {
  setViewportWidth(1600);
  // jsdom lays nothing out: the list's scroll area says it is 600 px tall.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? 600 : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  clearReadingList();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

const cardOf = (title: string) =>
  within(screen.getByRole('list', { name: 'Feed documents' })).getByRole('article', {
    name: title,
  });
const selectedTitles = () =>
  [...document.querySelectorAll('.result-card[data-selected]')].map(
    (card) => card.querySelector('.card-title')?.textContent,
  );
const press = (key: string, target: Element = document.body) => fireEvent.keyDown(target, { key });
const previewHeading = async (name: string) =>
  within(await screen.findByTestId('overlay')).findByRole('heading', { level: 3, name });
const setReadCalls = (calls: Array<{ op: string; input: unknown }>) =>
  calls.filter((c) => c.op === 'doc.setRead').map((c) => c.input);

/** Story n as the preview reads it, with the feed's read state. */
function storyDetail(feed: ReturnType<typeof createFeed>, deeplink: string): DocumentDetail {
  const n = Number(deeplink.slice(1));
  const read = feed.window({ offset: n - 1, count: 1 } as never).rows[0]?.read ?? false;
  return {
    ...storyCard(n),
    content: `<p>Body of story ${n}.</p>`,
    body: `Body of story ${n}.`,
    read,
  };
}

async function renderFeed(total = 20) {
  const feed = createFeed(total);
  const shell = await renderShell({
    path: '/feeds/home',
    session: SIGNED_IN,
    handlers: {
      'flags.get': () => FEED_FLAGS,
      'feed.window': feed.window,
      'feed.tabs': feed.tabs,
      'doc.get': ({ deeplink }) => storyDetail(feed, deeplink),
      'doc.setRead': ({ deeplinks, status }) => feed.setRead(deeplinks, status),
    },
  });
  await screen.findByText('Story 1');
  return { feed, ...shell };
}

describe('opening a document', () => {
  it('marks it read, in the preview and on its card behind', async () => {
    const { calls, emit } = await renderFeed();
    expect(cardOf('Story 2').className).toContain('unread');
    fireEvent.click(screen.getByRole('link', { name: 'Story 2' }));
    await previewHeading('Story 2');
    const panel = screen.getByTestId('overlay');
    expect(within(panel).getByRole('button', { name: 'Mark as unread' })).toBeTruthy();
    await waitFor(() =>
      expect(setReadCalls(calls)).toEqual([{ deeplinks: ['d2'], status: 'read' }]),
    );
    // The worker tells every tab what changed; the card behind now reads as read.
    await emit({ type: 'changed', store: 'read_status', keys: ['d2'] });
    await waitFor(() => expect(cardOf('Story 2').className).not.toContain('unread'));
  });
});

describe('previous and next in the preview', () => {
  it('step through the feed it was opened from, marking each opened one read', async () => {
    const { calls, history } = await renderFeed();
    fireEvent.click(screen.getByRole('link', { name: 'Story 2' }));
    await previewHeading('Story 2');
    const panel = screen.getByTestId('overlay');

    fireEvent.click(await within(panel).findByRole('button', { name: 'Next ›' }));
    await previewHeading('Story 3');
    expect(new URLSearchParams(history.location.search).get('overlay-deeplink')).toBe('d3');
    // The card of the document shown stays marked behind the overlay.
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 3']));

    fireEvent.click(within(panel).getByRole('button', { name: '‹ Previous' }));
    await previewHeading('Story 2');
    fireEvent.click(within(panel).getByRole('button', { name: '‹ Previous' }));
    await previewHeading('Story 1');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 1']));
    expect(
      (within(panel).getByRole('button', { name: '‹ Previous' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(setReadCalls(calls)).toEqual([
      { deeplinks: ['d2'], status: 'read' },
      { deeplinks: ['d3'], status: 'read' },
      { deeplinks: ['d1'], status: 'read' },
    ]);
  });

  it('step through the feed on the full-screen preview of a tablet', async () => {
    setViewportWidth(1000);
    const { history, calls } = await renderFeed();
    fireEvent.click(screen.getByRole('link', { name: 'Story 2' }));
    await screen.findByRole('heading', { level: 3, name: 'Story 2' });
    expect(history.location.pathname).toBe('/preview/reuters/d2');
    fireEvent.click(await screen.findByRole('button', { name: 'Next ›' }));
    await screen.findByRole('heading', { level: 3, name: 'Story 3' });
    expect(history.location.pathname).toBe('/preview/reuters/d3');
    expect(setReadCalls(calls)).toEqual([
      { deeplinks: ['d2'], status: 'read' },
      { deeplinks: ['d3'], status: 'read' },
    ]);

    // Back in the list, the card read last is the selected one: j carries on after it.
    history.back();
    await screen.findByText('Story 1');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 3']));
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 4']));
  });

  it('leave the full-screen preview with Escape, as its Back button does', async () => {
    setViewportWidth(1000);
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    try {
      await renderFeed();
      fireEvent.click(screen.getByRole('link', { name: 'Story 2' }));
      await screen.findByRole('heading', { level: 3, name: 'Story 2' });
      press('Escape');
      expect(back).toHaveBeenCalledTimes(1);
    } finally {
      back.mockRestore();
    }
  });

  it('step through search results too', async () => {
    const { history } = await renderShell({
      path: '/search?q=rates',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'search.window': createSearch(3),
        'search.tags': () => [],
        'search.exchanges': () => [],
        'doc.get': ({ deeplink }) =>
          rateDetail({ deeplink, title: `Rates story ${deeplink.slice(1)}` }),
        'doc.setRead': () => undefined,
      },
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Rates story 1' }));
    await previewHeading('Rates story 1');
    fireEvent.click(
      await within(screen.getByTestId('overlay')).findByRole('button', { name: 'Next ›' }),
    );
    await previewHeading('Rates story 2');
    const query = new URLSearchParams(history.location.search);
    expect(query.get('overlay-deeplink')).toBe('d2');
    expect(query.get('overlay-searchTerm')).toBe('rates');
  });
});

describe('the keyboard', () => {
  it('moves the selection with j/k and the arrows', async () => {
    await renderFeed();
    expect(selectedTitles()).toEqual([]);
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 1']));
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    press('ArrowDown');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 3']));
    press('k');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    press('ArrowUp');
    press('k');
    // The first card is as far as it goes.
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 1']));
  });

  it('keeps the selection on its card when new documents arrive above it', async () => {
    const { feed, emit } = await renderFeed();
    press('j');
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    feed.addNewest(storyCard(0, { doc_id: 'n1', deeplink: 'n1', title: 'Breaking news' }));
    await emit({ type: 'changed', store: 'feed_entries', keys: ['home|n1'] });
    await screen.findByText('Breaking news');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    press('k');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 1']));
  });

  it('toggles the selected card read with m', async () => {
    const { calls } = await renderFeed();
    press('j');
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    press('m');
    await waitFor(() => expect(cardOf('Story 2').className).not.toContain('unread'));
    press('m');
    await waitFor(() => expect(cardOf('Story 2').className).toContain('unread'));
    expect(setReadCalls(calls)).toEqual([
      { deeplinks: ['d2'], status: 'read' },
      { deeplinks: ['d2'], status: 'unread' },
    ]);
  });

  it('opens the selected card with o, steps in the preview with j/k, and closes it on Escape', async () => {
    const { history } = await renderFeed();
    press('j');
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 2']));
    press('o');
    await previewHeading('Story 2');
    press('j');
    await previewHeading('Story 3');
    press('k');
    press('k');
    await previewHeading('Story 1');
    await waitFor(() => expect(selectedTitles()).toEqual(['Story 1']));
    press('Escape');
    await waitFor(() => expect(history.location.search).not.toContain('overlay-type'));
    expect(screen.queryByTestId('overlay')).toBeNull();
    // The card read last stays selected.
    expect(selectedTitles()).toEqual(['Story 1']);
  });

  it('opens the next result beside the list on the full search page', async () => {
    const { history } = await renderShell({
      path: '/search/full?q=rates&source=reuters&deeplink=d1',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'search.window': createSearch(3),
        'search.tags': () => [],
        'search.exchanges': () => [],
        'doc.get': ({ deeplink }) =>
          rateDetail({ deeplink, title: `Rates story ${deeplink.slice(1)}` }),
        'doc.setRead': () => undefined,
      },
    });
    const beside = await screen.findByRole('region', { name: 'Document' });
    await within(beside).findByRole('heading', { level: 3, name: 'Rates story 1' });
    await waitFor(() => expect(selectedTitles()).toEqual(['Rates story 1']));
    press('j');
    await within(beside).findByRole('heading', { level: 3, name: 'Rates story 2' });
    expect(new URLSearchParams(history.location.search).get('deeplink')).toBe('d2');
    await waitFor(() => expect(selectedTitles()).toEqual(['Rates story 2']));
  });

  it('does nothing with keys typed in the search box', async () => {
    const { calls, history } = await renderShell({
      path: '/search?q=rates',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'search.window': createSearch(3),
        'search.tags': () => [],
        'search.exchanges': () => [],
        'doc.setRead': () => undefined,
      },
    });
    await screen.findByRole('link', { name: 'Rates story 1' });
    // The page's search box and the top bar's.
    const boxes = screen.getAllByRole('searchbox');
    expect(boxes.length).toBe(2);
    for (const box of boxes) {
      for (const key of ['j', 'ArrowDown', 'j', 'm', 'o', 'Enter']) press(key, box);
    }
    expect(selectedTitles()).toEqual([]);
    expect(setReadCalls(calls)).toEqual([]);
    expect(history.location.search).not.toContain('overlay-type');

    // The same keys outside the box do read through the results.
    press('j');
    await waitFor(() => expect(selectedTitles()).toEqual(['Rates story 1']));
  });
});
