import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEED_FLAGS, createFeed, storyCard } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The list's scroll area is 600 px tall (jsdom lays nothing out, so the test says so). */
const VIEWPORT_PX = 600;
/** A desktop card's height (src/features/documents/result-card.tsx). */
const CARD_PX = 200;

beforeEach(() => {
  setViewportWidth(1600);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? VIEWPORT_PX : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

const list = () => screen.getByRole('list', { name: 'Feed documents' });
const rows = () => within(list()).getAllByRole('listitem');
const cardOf = (title: string) => screen.getByRole('article', { name: title });
const scrollTo = (px: number) => {
  list().scrollTop = px;
  fireEvent.scroll(list());
};

function renderFeed(feed: ReturnType<typeof createFeed>, path = '/feeds/home', extra = {}) {
  return renderShell({
    path,
    session: SIGNED_IN,
    handlers: {
      'flags.get': () => FEED_FLAGS,
      'feed.window': feed.window,
      'feed.tabs': feed.tabs,
      'doc.setRead': ({ deeplinks, status }) => feed.setRead(deeplinks, status),
      ...extra,
    },
  });
}

describe('a feed of 1,000,000 documents', () => {
  it('keeps at most 150 cards in the DOM and reaches the last one by scrolling', async () => {
    const feed = createFeed(1_000_000);
    await renderFeed(feed);
    expect(await screen.findByText('Story 1')).toBeTruthy();
    expect(rows().length).toBeLessThanOrEqual(150);
    expect(rows()[0].getAttribute('aria-setsize')).toBe('1000000');
    // 200M px of cards in a scroll area under Chromium's 33,554,428 px cap.
    const inner = list().firstElementChild as HTMLElement;
    expect(parseFloat(inner.style.height)).toBeLessThan(33_554_428);

    scrollTo(parseFloat(inner.style.height) - VIEWPORT_PX);
    expect(await screen.findByText('Story 1000000')).toBeTruthy();
    const last = cardOf('Story 1000000').closest('[role="listitem"]');
    expect(last?.getAttribute('aria-posinset')).toBe('1000000');
    expect(rows().length).toBeLessThanOrEqual(150);

    scrollTo(parseFloat(inner.style.height) / 2);
    // Halfway down the scroll area is halfway down the feed.
    const middle = await screen.findAllByText(/^Story (4999\d\d|5000\d\d)$/);
    expect(middle.length).toBeGreaterThan(0);
  });
});

describe('category tabs and sort', () => {
  it('shows the tabs with their counts and reads the chosen one', async () => {
    const feed = createFeed(40, [
      { key: 'today', label: 'Today', data: 3, icon: '' },
      { key: 'rss_news', label: 'news', data: 25, icon: '' },
      { key: 'india_capital_markets', label: 'in', data: 5, icon: '' },
      { key: 'us_capital_markets', label: 'us', data: 10, icon: '' },
    ]);
    const { calls, history } = await renderFeed(feed);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'All 40',
      'News 25',
      'Indian Exchange 5',
      'US Exchange 10',
    ]);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'US Exchange 10' }));
    await waitFor(() =>
      expect(history.location.search).toContain('category_tab=us_capital_markets'),
    );
    await waitFor(() =>
      expect(
        calls.some(
          (c) =>
            c.op === 'feed.window' &&
            (c.input as { tab: string | null }).tab === 'us_capital_markets',
        ),
      ).toBe(true),
    );
  });

  it('offers the sort options of 002 §9 (and the priority view) and reads the feed in the chosen order', async () => {
    const feed = createFeed(10);
    const { calls } = await renderFeed(feed);
    const select = await screen.findByRole('combobox', { name: 'Sort by' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Latest first',
      'Oldest first',
      'Company A to Z',
      'Company Z to A',
      'Category A to Z',
      'Category Z to A',
      'Priority people first',
    ]);
    fireEvent.change(select, { target: { value: 'oldest' } });
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.op === 'feed.window' && (c.input as { sort: string }).sort === 'oldest',
        ),
      ).toBe(true),
    );
  });
});

describe('read state', () => {
  it('marks a card read at once, then through the worker', async () => {
    const feed = createFeed(20);
    const { calls } = await renderFeed(feed);
    await screen.findByText('Story 1');
    expect(cardOf('Story 1').className).toContain('unread');
    fireEvent.click(within(cardOf('Story 1')).getByRole('button', { name: 'Mark as read' }));
    expect(within(cardOf('Story 1')).getByRole('button', { name: 'Mark as unread' })).toBeTruthy();
    expect(cardOf('Story 1').className).not.toContain('unread');
    expect(calls.find((c) => c.op === 'doc.setRead')?.input).toEqual({
      deeplinks: ['d1'],
      status: 'read',
    });
  });

  it('puts the card back and says so when marking fails', async () => {
    const feed = createFeed(20);
    await renderFeed(feed, '/feeds/home', {
      'doc.setRead': () => Promise.reject(apiError(500, 'internal', 'PUT /doc/read_status failed')),
    });
    await screen.findByText('Story 1');
    fireEvent.click(within(cardOf('Story 1')).getByRole('button', { name: 'Mark as read' }));
    expect(
      await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :('),
    ).toBeTruthy();
    expect(within(cardOf('Story 1')).getByRole('button', { name: 'Mark as read' })).toBeTruthy();
  });

  it('shows a document read in another tab as read here', async () => {
    const feed = createFeed(20);
    const { emit } = await renderFeed(feed);
    await screen.findByText('Story 2');
    feed.setRead(['d2'], 'read');
    emit({ type: 'changed', store: 'read_status', keys: ['d2'] });
    await waitFor(() => expect(cardOf('Story 2').className).not.toContain('unread'));
  });
});

describe('new documents', () => {
  it('appear at the top without a reload', async () => {
    const feed = createFeed(20);
    const { emit } = await renderFeed(feed);
    await screen.findByText('Story 1');
    feed.addNewest(storyCard(0, { doc_id: 'n1', deeplink: 'n1', title: 'Breaking news' }));
    emit({ type: 'changed', store: 'feed_entries', keys: ['home|n1'] });
    expect(await screen.findByText('Breaking news')).toBeTruthy();
    expect(within(rows()[0]).getByText('Breaking news')).toBeTruthy();
  });

  it('keep the cards being read in place further down', async () => {
    const feed = createFeed(1000);
    const { emit } = await renderFeed(feed);
    await screen.findByText('Story 1');
    scrollTo(100 * CARD_PX);
    await screen.findByText('Story 101');
    for (const n of [1, 2, 3]) {
      feed.addNewest(storyCard(0, { doc_id: `n${n}`, deeplink: `n${n}`, title: `New ${n}` }));
    }
    emit({ type: 'changed', store: 'feed_entries', keys: null });
    // Story 101 moved to place 104: the list scrolled by the three cards added above it.
    await waitFor(() => expect(list().scrollTop).toBe(103 * CARD_PX));
    const place = cardOf('Story 101').closest('[role="listitem"]');
    expect(place?.getAttribute('aria-posinset')).toBe('104');
  });
});
