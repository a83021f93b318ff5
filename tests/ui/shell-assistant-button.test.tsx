import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantButtonMode } from '../../src/layout/assistant-button-rules';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

const on = { ask_needl_copilot: true };
const mode = (path: string, flags: Record<string, boolean> = on, viewportWidth = 1600) =>
  assistantButtonMode(path, { product: 'needl', flags, viewportWidth });

describe('floating assistant button rules (000 §2)', () => {
  it('is hidden where the spec hides it', () => {
    for (const path of [
      '/settings/tags',
      '/notebooks',
      '/managers/assistants/dashboard',
      '/managers/report_generation/dashboard',
      '/report/42',
      '/needlbox/bookmarks/all',
      '/search/full',
      '/ask-needl/full',
      '/landing',
    ]) {
      expect(mode(path), path).toBe('hidden');
    }
    expect(mode('/feeds/home', {})).toBe('hidden');
    expect(mode('/feeds/home', on, 600)).toBe('hidden');
  });

  it('is shown on tablets, hidden on phones (issue 18: the assistant reachable at 900 px)', () => {
    expect(mode('/feeds/home', on, 767)).toBe('hidden');
    expect(mode('/feeds/home', on, 768)).toBe('enabled');
    expect(mode('/feeds/home', on, 900)).toBe('enabled');
    expect(mode('/feeds/home', on, 1025)).toBe('enabled');
  });

  it('is disabled where the spec disables it', () => {
    for (const path of [
      '/feeds/clipped_reports',
      '/channels/42/tags',
      '/feeds/rss/comments',
      '/ask-needl',
      '/apps/needldrive',
      '/connect/rss',
    ]) {
      expect(mode(path), path).toBe('disabled');
    }
  });

  it('is enabled elsewhere', () => {
    expect(mode('/feeds/home')).toBe('enabled');
    expect(mode('/search')).toBe('enabled');
  });
});

describe('floating assistant button', () => {
  it('opens the assistant overlay beside the page', async () => {
    const { history } = await renderShell({ path: '/search?q=rates', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Open AskNeedl' }));
    await waitFor(() =>
      expect(new URLSearchParams(history.location.search).get('overlay-type')).toBe('ask-needl'),
    );
    expect(new URLSearchParams(history.location.search).get('q')).toBe('rates');
    expect(await screen.findByTestId('overlay')).toBeTruthy();
  });

  it('opens the assistant page on a tablet, where the overlay is not shown', async () => {
    setViewportWidth(900);
    const { history } = await renderShell({ path: '/search?q=rates', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Open AskNeedl' }));
    await waitFor(() => expect(history.location.pathname).toBe('/ask-needl'));
    expect(screen.queryByTestId('overlay')).toBeNull();
  });

  it('is not offered on a phone (the drawer reaches the assistant)', async () => {
    setViewportWidth(390);
    await renderShell({ path: '/search?q=rates', session: SIGNED_IN });
    await screen.findByRole('button', { name: 'Account menu' });
    expect(screen.queryByRole('button', { name: /AskNeedl/ })).toBeNull();
  });
});
