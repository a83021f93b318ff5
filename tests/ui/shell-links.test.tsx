import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

describe('the current page', () => {
  it('is one navigation item, the most specific, and only the last breadcrumb', async () => {
    await renderShell({ path: '/feeds/home/rss_news', session: SIGNED_IN });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });

    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['My Data']);
    const search = within(nav).getByRole('link', { name: 'Search' });
    expect(search.getAttribute('aria-current')).toBeNull();
    expect(search.classList.contains('active')).toBe(false);
    expect(within(nav).getByRole('link', { name: 'My Data' }).classList).toContain('active');

    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const links = within(crumbs).getAllByRole('link');
    expect(links.length).toBeGreaterThan(1);
    for (const link of links)
      expect(link.getAttribute('aria-current'), link.textContent).toBeNull();
    const last = crumbs.querySelector('[aria-current="page"]');
    expect(last?.tagName).toBe('STRONG');
    expect(crumbs.querySelectorAll('[aria-current]')).toHaveLength(1);
  });

  it('is the item whose path it is exactly', async () => {
    await renderShell({ path: '/connect/rss', session: SIGNED_IN });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Add source']);
  });
});

describe('links keep overlay- params (000 §2)', () => {
  const OVERLAY = 'overlay-type=portfolio&overlay-extra=1';

  it('the brand, Notifications and "Go to my start page"', async () => {
    // A path with no screen: it offers "Go to my start page".
    await renderShell({ path: `/no-such-screen?q=rates&${OVERLAY}`, session: SIGNED_IN });
    await screen.findByTestId('overlay');
    const header = document.querySelector<HTMLElement>('header.top-bar');
    if (!header) throw new Error('the top bar is missing');
    expect(within(header).getByRole('link', { name: 'Needl' }).getAttribute('href')).toBe(
      `/?${OVERLAY}`,
    );
    expect(within(header).getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe(
      `/notifications?${OVERLAY}`,
    );
    expect(screen.getByRole('link', { name: 'Go to my start page' }).getAttribute('href')).toBe(
      `/?${OVERLAY}`,
    );
  });

  it('an empty feed\'s "Follow a source"', async () => {
    await renderShell({ path: `/feeds/home/rss_news?${OVERLAY}`, session: SIGNED_IN });
    expect(
      (await screen.findByRole('link', { name: 'Follow a source' })).getAttribute('href'),
    ).toBe(`/connect/website?${OVERLAY}`);
  });

  it('"/" sends to the landing route with them', async () => {
    const { history } = await renderShell({ path: `/?${OVERLAY}`, session: SIGNED_IN });
    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    expect(history.location.search).toBe(`?${OVERLAY}`);
    expect(await screen.findByTestId('overlay')).toBeTruthy();
  });
});
