import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail } from '../../contract/documents';
import {
  FEED_FLAGS,
  board,
  createFeed,
  source,
  storyCard,
  type BoardEntryRow,
} from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

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

const cardOf = (title: string) => screen.getByRole('article', { name: title });

/** A feed whose only card is `row`. */
function oneCard(row: BoardEntryRow) {
  return {
    'flags.get': () => FEED_FLAGS,
    'feed.tabs': () => [{ key: 'rss_news', label: 'News', data: 1, icon: '' }],
    'feed.window': ({ offset }: { offset: number }) => ({
      offset,
      rows: offset === 0 ? [row] : [],
      total: 1,
      complete: true,
    }),
  };
}

const detail = (patch: Partial<DocumentDetail> = {}): DocumentDetail => {
  const { read: _read, ...card } = storyCard(1);
  return {
    ...card,
    content:
      '<p>Rates held.</p><script>window.hacked = 1</script>' +
      '<a href="javascript:alert(1)">bad link</a> <a href="https://example.com/more">more</a>' +
      '<img src="x" onerror="window.hacked = 2"><img src="http://example.com/a.png">',
    body: 'Rates held.',
    read: false,
    ...patch,
  };
};

describe('the result card', () => {
  it('shows typed filing fields, pill tags with an overflow popup, and its source and date', async () => {
    const filing = storyCard(1, {
      title: 'Apple Inc. 10-K',
      label: 'SEC',
      category: 'exchanges_groups',
      category_tab: 'exchanges',
      company_name: 'Apple Inc.',
      security_code: 'AAPL',
      secondary_category: 'Annual report',
      categories: ['10-K', 'A', 'B', 'C', 'D', 'E', 'F'],
    });
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: oneCard(filing) });
    await screen.findByText('Apple Inc. 10-K');
    const card = cardOf('Apple Inc. 10-K');
    expect(within(card).getByText('SEC')).toBeTruthy();
    const fields = [...card.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(fields).toEqual(['Company', 'Security code', 'Category', 'Secondary category']);
    const pills = within(card).getByRole('list', { name: 'Categories' });
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['10-K', 'A', 'B', 'C', 'D']);
    fireEvent.click(within(card).getByRole('button', { name: '2 more categories' }));
    const more = within(card).getByRole('list', { name: 'More categories' });
    expect(
      within(more)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['E', 'F']);
    fireEvent.keyDown(more, { key: 'Escape' });
    expect(within(card).queryByRole('list', { name: 'More categories' })).toBeNull();
  });

  it('shows an https thumbnail and hides it when it fails to load; never an http one', async () => {
    const row = storyCard(1, { thumbnail_location: 'https://cdn.example.com/a.png' });
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: oneCard(row) });
    await screen.findByText('Story 1');
    const img = cardOf('Story 1').querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://cdn.example.com/a.png');
    fireEvent.error(img as HTMLImageElement);
    await waitFor(() => expect(cardOf('Story 1').querySelector('img')).toBeNull());
    cleanup();

    const plain = storyCard(1, { thumbnail_location: 'http://cdn.example.com/a.png' });
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: oneCard(plain) });
    await screen.findByText('Story 1');
    expect(cardOf('Story 1').querySelector('img')).toBeNull();
  });
});

describe('the preview overlay', () => {
  it('opens from the card with its parameters and shows the document sanitised again', async () => {
    const { history, calls } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: { ...oneCard(storyCard(1)), 'doc.get': () => detail() },
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Story 1' }));
    await waitFor(() => expect(history.location.search).toContain('overlay-type=preview'));
    const search = new URLSearchParams(history.location.search);
    expect(search.get('overlay-source')).toBe('reuters');
    expect(search.get('overlay-category')).toBe('rss_news');
    expect(search.get('overlay-deeplink')).toBe('d1');
    expect(search.get('overlay-category_tab')).toBe('rss_news');

    const panel = await screen.findByTestId('overlay');
    expect(await within(panel).findByText('Rates held.')).toBeTruthy();
    expect(calls.find((c) => c.op === 'doc.get')?.input).toEqual({
      source: 'reuters',
      deeplink: 'd1',
    });
    expect(panel.querySelector('script')).toBeNull();
    expect(panel.querySelector('[onerror]')).toBeNull();
    expect(within(panel).getByText('bad link').getAttribute('href')).toBeNull();
    expect(within(panel).getByText('more').getAttribute('href')).toBe('https://example.com/more');
    // Images only from https: neither the relative nor the http one is kept.
    expect(panel.querySelectorAll('.preview-body img')).toHaveLength(0);
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    expect(within(panel).getByRole('link', { name: 'Open original' }).getAttribute('href')).toBe(
      'https://example.com/story/1',
    );
  });

  it('offers "Open original" only for an http or https address', async () => {
    await renderShell({
      path: '/feeds/home?overlay-type=preview&overlay-source=reuters&overlay-category=rss_news&overlay-deeplink=d1',
      session: SIGNED_IN,
      handlers: {
        ...oneCard(storyCard(1)),
        'doc.get': () => detail({ link: 'javascript:alert(1)' }),
      },
    });
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByText('Rates held.');
    expect(within(panel).queryByRole('link', { name: 'Open original' })).toBeNull();
  });
});

describe('the full-screen preview', () => {
  it('is where a card opens on a tablet, which has no overlay', async () => {
    setViewportWidth(1000);
    const { history } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: { ...oneCard(storyCard(1)), 'doc.get': () => detail() },
    });
    const link = await screen.findByRole('link', { name: 'Story 1' });
    expect(link.getAttribute('href')).toBe(
      '/preview/reuters/d1?category_tab=rss_news&board_id=home',
    );
    fireEvent.click(link);
    await waitFor(() => expect(history.location.pathname).toBe('/preview/reuters/d1'));
    expect(await screen.findByText('Rates held.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Story 1' })).toBeTruthy();
  });
});

describe('empty states (000 §2)', () => {
  it('a family nothing here provides says so, with "Follow a source" and the general help page', async () => {
    await renderShell({ path: '/feeds/home/chats', session: SIGNED_IN });
    expect(await screen.findByRole('heading', { name: 'No chats yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Follow a source' }).getAttribute('href')).toBe(
      '/connect/website',
    );
    expect(screen.getByRole('link', { name: 'Visit the help centre' }).getAttribute('href')).toBe(
      'https://help.needl.ai/',
    );
  });

  it('an empty news feed points to the websites help page', async () => {
    await renderShell({ path: '/feeds/home/rss_news', session: SIGNED_IN });
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Learn about following websites' }).getAttribute('href'),
    ).toBe('https://help.needl.ai/websites');
  });
});

describe('feed names', () => {
  it("a feed's page is headed by its name, and it is in the side navigation", async () => {
    await renderShell({
      path: '/feeds/b1',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'boards.list': () => [board('b1', 'Rate watch')],
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Rate watch' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const link = within(nav).getByRole('link', { name: 'Rate watch' });
    expect(link.getAttribute('href')).toBe('/feeds/b1');
    expect(link.getAttribute('aria-current')).toBe('page');
  });

  it("a source's page is headed by its label; unfollowing goes to the next source", async () => {
    const feed = createFeed(3);
    const { history, calls } = await renderShell({
      path: '/apps/rss_1',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'sources.list': () => [source(), source({ key: 'rss_2', source_id: 'src2', label: 'Two' })],
        'feed.window': feed.window,
        'feed.tabs': feed.tabs,
        'sources.unfollow': () => ({
          message: 'Fixture Feed is successfully unfollowed',
          next: 'rss_2',
        }),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fixture Feed' })).toBeTruthy();
    expect(await screen.findByText('Story 1')).toBeTruthy();
    expect(calls.find((c) => c.op === 'feed.window')?.input).toMatchObject({ source: 'rss_1' });
    fireEvent.click(await screen.findByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByText('Fixture Feed is successfully unfollowed')).toBeTruthy();
    await waitFor(() => expect(history.location.pathname).toBe('/apps/rss_2'));
  });
});
