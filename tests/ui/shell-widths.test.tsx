import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FEED_FLAGS, createFeed } from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
// The feed screen is loaded on demand: load it once before the tests wait for it.
beforeAll(() => import('../../src/features/boards/feed-page'));

/** The side navigation, shown or not (closed, it is hidden from assistive technology). */
function sideNav(): HTMLElement {
  const nav = document.getElementById('side-nav');
  if (!nav) throw new Error('the side navigation is missing');
  return nav;
}

describe('on a phone the navigation is a drawer (issue 18)', () => {
  it('opens over the page with a scrim, which closes it', async () => {
    setViewportWidth(390);
    await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('button', { name: 'Open navigation' }, { timeout: 5000 });
    const nav = sideNav();
    expect(nav.getAttribute('data-state')).toBe('closed');
    expect(nav.classList).toContain('drawer');
    expect(screen.queryByTestId('nav-scrim')).toBeNull();

    fireEvent.click(await screen.findByRole('button', { name: 'Open navigation' }));
    await waitFor(() => expect(nav.getAttribute('data-state')).toBe('opened'));
    fireEvent.click(screen.getByTestId('nav-scrim'));
    await waitFor(() => expect(nav.getAttribute('data-state')).toBe('closed'));
    expect(screen.queryByTestId('nav-scrim')).toBeNull();
  });

  it('closes once an entry is chosen', async () => {
    setViewportWidth(390);
    const { history } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Search' }));
    await waitFor(() => expect(history.location.pathname).toBe('/search'));
    await waitFor(() => expect(sideNav().getAttribute('data-state')).toBe('closed'));
  });

  it('sits beside the page on wider screens, with no scrim', async () => {
    setViewportWidth(1440);
    await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(nav.getAttribute('data-state')).toBe('opened');
    expect(nav.classList).not.toContain('drawer');
    expect(screen.queryByTestId('nav-scrim')).toBeNull();
  });
});

describe('a feed with documents (issue 18)', () => {
  it('offers "Add source" and "New feed" beside its sort', async () => {
    setViewportWidth(1440);
    const feed = createFeed(3);
    await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'feed.window': feed.window,
        'feed.tabs': feed.tabs,
      },
    });
    await screen.findByRole('list', { name: 'Feed documents' });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Add source' }).getAttribute('href')).toBe(
      '/connect/rss',
    );
    expect(within(main).getByRole('link', { name: 'New feed' }).getAttribute('href')).toBe(
      '/custom-feed',
    );
  });
});
