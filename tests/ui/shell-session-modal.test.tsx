import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

describe('sign-in-required modal', () => {
  it('appears when another tab signs out, with one Reload button that reloads', async () => {
    const { emit, reloads } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });

    emit({ type: 'logout', reason: 'signed-out', origin_tab: 'another-tab' });

    const dialog = await screen.findByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('You have been logged out');
    expect(dialog.textContent).toContain('Press the Reload button to sign in again');
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Reload']);

    fireEvent.click(buttons[0]);
    expect(reloads).toHaveLength(1);
  });

  it('cannot be closed by clicking outside or pressing Escape', async () => {
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    emit({ type: 'logout', reason: 'session-lost', origin_tab: null });
    const dialog = await screen.findByRole('dialog');

    fireEvent.click(screen.getByTestId('sign-in-required-backdrop'));
    fireEvent.mouseDown(document.body);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape' });

    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('is not shown in the tab that signed out, which goes to sign-in', async () => {
    const { emit, history } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      tabId: 'this-tab',
    });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });

    emit({ type: 'logout', reason: 'signed-out', origin_tab: 'this-tab' });

    await waitFor(() => expect(history.location.pathname).toBe('/auth/signin'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the Sign out button signs out through the worker and shows sign-in', async () => {
    const { calls, history } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(history.location.pathname).toBe('/auth/signin'));
    expect(calls.some((c) => c.op === 'auth.signOut')).toBe(true);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
