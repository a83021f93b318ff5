import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

describe('a screen that is not built yet', () => {
  it('shows the navigation, breadcrumbs, page header and a clear "not available yet"', async () => {
    await renderShell({ path: '/channels/home/chats', session: SIGNED_IN });

    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'My Data' }).getAttribute('href')).toBe(
      '/feeds/home',
    );
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(crumbs).getByRole('link', { name: 'Groups' }).getAttribute('href')).toBe(
      '/channels',
    );
    expect(within(crumbs).queryByRole('link', { name: 'Chats' })).toBeNull();
    expect(within(crumbs).getByText('Chats').tagName).toBe('STRONG');
    expect(screen.getByRole('heading', { level: 1, name: 'Group Data' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Not available yet' })).toBeTruthy();
  });

  it('shows the shell for a path no screen exists for (the catch-all)', async () => {
    await renderShell({ path: '/market-intelligence/overview', session: SIGNED_IN });
    expect(await screen.findByRole('heading', { name: 'Not available yet' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it('reports each route change to the worker', async () => {
    const { calls, history } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Add source' }));
    await waitFor(() => expect(history.location.pathname).toBe('/connect/rss'));
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'tab.route').map((c) => c.input)).toEqual([
        { path: '/connect/rss' },
      ]),
    );
  });
});

describe('session start', () => {
  it('sends the analytics report for the signed-in user', async () => {
    const { calls } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    await waitFor(() =>
      expect(calls.find((c) => c.op === 'analytics.report')?.input).toEqual({
        adblocker_installed: false,
        mp_info: {
          event_name: 'session_start',
          distinct_id: 'u1',
          email: 'demo@needl.ai',
          name: 'Demo User',
        },
        mp_error: null,
      }),
    );
  });

  it('sends none while signed out', async () => {
    const { calls } = await renderShell({ path: '/auth/signin' });
    await screen.findByRole('button', { name: 'Sign in' });
    expect(calls.some((c) => c.op === 'analytics.report')).toBe(false);
  });
});

describe('overlay host', () => {
  it('shows the spec error text for an unknown overlay type, and logs it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { calls } = await renderShell({
      path: '/feeds/home?overlay-type=nonsense',
      session: SIGNED_IN,
    });
    const panel = await screen.findByTestId('overlay');
    expect(within(panel).getByRole('alert').textContent).toBe('Overlay Type not found!');
    await waitFor(() =>
      expect(calls.find((c) => c.op === 'log.debug')?.input).toMatchObject({
        logData: { message: 'Unknown overlay type' },
      }),
    );
    expect(warn).toHaveBeenCalledWith('Unknown overlay type', expect.stringContaining('nonsense'));
    warn.mockRestore();
  });

  it('shows the spec error text for missing params', async () => {
    await renderShell({ path: '/feeds/home?overlay-type=report', session: SIGNED_IN });
    const panel = await screen.findByTestId('overlay');
    expect(within(panel).getByRole('alert').textContent).toBe('Invalid Overlay params supplied!');
  });

  it('opens the portfolio overlay at its width and closing it removes every overlay- param', async () => {
    const { history } = await renderShell({
      path: '/feeds/home?q=rates&overlay-type=portfolio&overlay-extra=1',
      session: SIGNED_IN,
    });
    const panel = await screen.findByTestId('overlay');
    expect(within(panel).getByRole('heading', { name: 'Create Portfolio' })).toBeTruthy();
    expect(panel.style.width).toBe('800px');

    fireEvent.click(within(panel).getByRole('button', { name: 'Close panel' }));
    await waitFor(() => expect(screen.queryByTestId('overlay')).toBeNull());
    expect(history.location.search).toBe('?q=rates');
  });

  it('is not shown on tablet and smaller screens', async () => {
    setViewportWidth(1000);
    await renderShell({ path: '/feeds/home?overlay-type=portfolio', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    expect(screen.queryByTestId('overlay')).toBeNull();
  });

  it('remembers a resized width per type', async () => {
    const { calls } = await renderShell({
      path: '/feeds/home?overlay-type=portfolio',
      session: SIGNED_IN,
    });
    const handle = await screen.findByRole('separator', { name: 'Resize panel' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    await waitFor(() => expect(screen.getByTestId('overlay').style.width).toBe('816px'));
    await waitFor(() =>
      expect(calls.find((c) => c.op === 'preferences.update')?.input).toEqual({
        overlay_widths: { portfolio: 51 },
      }),
    );
  });

  it('the assistant overlay header has maximise and close, and history only with its flag', async () => {
    await renderShell({
      path: '/feeds/home?overlay-type=ask-needl',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => ({ my_data: true, ask_needl_copilot: true, ask_needl_history: true }),
      },
    });
    const panel = await screen.findByTestId('overlay');
    expect(panel.style.width).toBe('560px');
    fireEvent.click(within(panel).getByRole('button', { name: 'Maximise panel' }));
    await waitFor(() => expect(screen.getByTestId('overlay').style.width).toBe('1280px'));
    expect(within(panel).getByRole('button', { name: 'Conversation history' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Close panel' })).toBeTruthy();
  });
});

describe('side navigation', () => {
  it('starts from the stored nav_state and the toggle stores the new one', async () => {
    const { calls } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: { 'preferences.get': () => ({ nav_state: 'close', overlay_widths: {} }) },
    });
    const toggle = await screen.findByRole('button', { name: 'Open navigation' });
    expect(document.getElementById('side-nav')?.getAttribute('data-state')).toBe('closed');

    fireEvent.click(toggle);
    await waitFor(() =>
      expect(document.getElementById('side-nav')?.getAttribute('data-state')).toBe('opened'),
    );
    expect(calls.find((c) => c.op === 'preferences.update')?.input).toEqual({
      nav_state: 'opened',
    });
  });

  it('peeks from the left edge while closed and hides when the mouse moves away', async () => {
    await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: { 'preferences.get': () => ({ nav_state: 'closed', overlay_widths: {} }) },
    });
    fireEvent.mouseEnter(await screen.findByTestId('nav-peek-zone'));
    const nav = () => document.getElementById('side-nav')?.getAttribute('data-state');
    await waitFor(() => expect(nav()).toBe('peek'));
    fireEvent.mouseMove(document, { clientX: 200 });
    expect(nav()).toBe('peek');
    fireEvent.mouseMove(document, { clientX: 400 });
    await waitFor(() => expect(nav()).toBe('closed'));
  });

  it('starts closed on a tablet', async () => {
    setViewportWidth(900);
    await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('button', { name: 'Open navigation' });
    expect(document.getElementById('side-nav')?.getAttribute('data-state')).toBe('closed');
  });

  it('is not on routes without navigation', async () => {
    await renderShell({ path: '/notifications', session: SIGNED_IN, handlers: {} });
    await screen.findByRole('heading', { level: 1, name: 'Notifications' });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: /navigation/ })).toBeNull();
  });
});

describe('at phone widths', () => {
  it('the account menu reaches Notifications, the account and Sign out', async () => {
    setViewportWidth(600);
    const { history } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    const menu = await screen.findByRole('button', { name: 'Account menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Notifications' })).toBeNull();

    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Notifications' }).getAttribute('href')).toBe(
      '/notifications',
    );
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(screen.getByText('Demo User')).toBeTruthy();

    // Escape closes it and gives focus back to its button.
    fireEvent.keyDown(screen.getByRole('link', { name: 'Notifications' }), { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);

    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: 'Notifications' }));
    await waitFor(() => expect(history.location.pathname).toBe('/notifications'));
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Account menu' }).getAttribute('aria-expanded'),
      ).toBe('false'),
    );
  });

  it('wider screens show the links in the top bar, with no menu', async () => {
    await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull();
  });
});
