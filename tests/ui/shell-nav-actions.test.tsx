import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { board, createFeed, FEED_FLAGS, source } from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => {
  setViewportWidth(1600);
  // jsdom lays nothing out: the feed's list gets a height, so its cards are drawn.
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

/** An account with data: a feed of its own, a followed source and documents in My Data. */
function withData() {
  const feed = createFeed(3);
  return {
    'flags.get': () => FEED_FLAGS,
    'boards.list': () => [board('b1', 'Rate watch')],
    'sources.list': () => [source()],
    'feed.window': feed.window,
    'feed.tabs': feed.tabs,
  };
}

/** The key actions (issue 18 item 2): each entry, where it goes, and what that screen shows. */
const ACTIONS = [
  {
    label: 'New feed',
    href: '/custom-feed',
    group: 'My Feeds',
    shows: { role: 'heading', name: 'Create a feed' },
  },
  {
    label: 'Feed Manager',
    href: '/settings/feeds/root',
    group: 'My Feeds',
    shows: { role: 'button', name: 'Create feed' },
  },
  {
    label: 'Add source',
    href: '/connect/rss',
    group: 'Sources',
    shows: { role: 'heading', name: 'Follow a feed or a website' },
  },
  {
    label: 'Browse sources',
    href: '/connect/website',
    group: 'Sources',
    shows: { role: 'link', name: 'Add by address' },
  },
  {
    label: 'Ingestion status',
    href: '/settings/feeds',
    group: 'Sources',
    shows: { role: 'table', name: 'Sources you follow and how their reading goes' },
  },
] as const;

const groupOf = (link: HTMLElement) =>
  link.closest('.nav-group')?.querySelector('.nav-heading')?.textContent;

describe('the side navigation of an account with data', () => {
  it('offers adding a source, a new feed and the feed manager, though no feed is empty', async () => {
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: withData() });
    expect(await screen.findByText('Story 1')).toBeTruthy();
    // The empty state, until now the only way to these screens, is not shown.
    expect(screen.queryByRole('link', { name: 'Add an RSS feed' })).toBeNull();

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    for (const action of ACTIONS) {
      const link = within(nav).getByRole('link', { name: action.label });
      expect(link.getAttribute('href'), action.label).toBe(action.href);
      expect(groupOf(link), action.label).toBe(action.group);
    }
    // The user's own feeds still follow in My Feeds.
    expect(groupOf(within(nav).getByRole('link', { name: 'Rate watch' }))).toBe('My Feeds');
  });

  it('offers them to an account without feeds of its own too', async () => {
    await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'New feed' }).getAttribute('href')).toBe(
      '/custom-feed',
    );
    expect(within(nav).getByRole('link', { name: 'Add source' }).getAttribute('href')).toBe(
      '/connect/rss',
    );
  });

  it.each(ACTIONS)('"$label" opens a working screen at $href', async (action) => {
    const { history } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: withData(),
    });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('link', { name: action.label }));
    await waitFor(() => expect(history.location.pathname).toBe(action.href));
    expect(await screen.findByRole(action.shows.role, { name: action.shows.name })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Not available yet' })).toBeNull();
  });

  it("marks the catalogue's entry as the current page there", async () => {
    await renderShell({
      path: '/connect/website',
      session: SIGNED_IN,
      handlers: withData(),
    });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Browse sources']);
  });
});
