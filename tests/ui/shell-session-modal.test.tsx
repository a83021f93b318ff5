import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '../../contract/worker-api';
import { SIGNED_IN, SIGNED_OUT, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
// The screens a sign-out passes through, loaded before the tests as a busy run has them: with the
// sign-in screen at hand at once, a route check answered signed-in (the session from before the
// sign-out) brought the feed page back over the sign-in page.
beforeAll(
  () =>
    Promise.all([
      import('../../src/features/boards/feed-page'),
      import('../../src/screens/auth/sign-in-page'),
    ]),
  60_000,
);
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

  it('is a modal dialog: the page behind it is out of reach', async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal');
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    emit({ type: 'logout', reason: 'session-lost', origin_tab: null });

    const dialog = await screen.findByRole('dialog');
    // A native modal dialog: the browser makes everything else inert (focus, clicks, readers).
    expect(dialog.tagName).toBe('DIALOG');
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(showModal.mock.contexts[0]).toBe(dialog);
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Reload' }));
    showModal.mockRestore();
  });

  it('cannot be closed by clicking outside or pressing Escape', async () => {
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    emit({ type: 'logout', reason: 'session-lost', origin_tab: null });
    const dialog = (await screen.findByRole('dialog')) as HTMLDialogElement;

    // Outside a modal dialog is its backdrop: a click there lands on the dialog element.
    fireEvent.click(dialog);
    fireEvent.mouseDown(document.body);
    // Escape is refused twice over: the key press and the close request it makes ('cancel').
    expect(fireEvent.keyDown(dialog, { key: 'Escape' })).toBe(false);
    expect(fireEvent(dialog, new Event('cancel', { cancelable: true }))).toBe(false);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(dialog.open).toBe(true);

    // A browser that closes it anyway (Chrome does on a repeated Escape) sees it open again.
    act(() => dialog.close());
    expect(dialog.open).toBe(true);
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

  it('is not shown in the tab that signed out when a request in flight then finds no session', async () => {
    const { emit, history } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    // A poll sent before the sign-out is answered 401 after it: the worker says the session is lost.
    emit({ type: 'logout', reason: 'session-lost', origin_tab: null });
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

  it('stays signed out when a route check asked before the sign-out answers after it', async () => {
    let answerLate: (session: SessionState) => void = () => {};
    let routeChecks = 0;
    const { history, shell } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: {
        // The first route check (to /notifications) is held until after the sign-out.
        'tab.route': () =>
          routeChecks++ === 0
            ? new Promise<SessionState>((resolve) => (answerLate = resolve))
            : SIGNED_OUT,
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    await act(() => shell.router.navigate({ href: '/notifications' }));
    await waitFor(() => expect(routeChecks).toBe(1));

    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await screen.findByRole('button', { name: 'Sign in' });
    // The held answer, from before the sign-out; a macrotask lets every promise it feeds settle.
    await act(async () => {
      answerLate(SIGNED_IN);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    expect(shell.services.state.$session.peek()).toEqual({ status: 'signed-out' });
    expect(history.location.pathname).toBe('/auth/signin');
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false);
    expect(screen.queryByRole('heading', { level: 1, name: 'My Data' })).toBeNull();
  });

  it('closes when the user signs in again in another tab, and reads the account afresh', async () => {
    const { emit, calls } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    emit({ type: 'logout', reason: 'signed-out', origin_tab: 'another-tab' });
    await screen.findByRole('dialog');
    const flagReads = calls.filter((c) => c.op === 'flags.get').length;

    // Still signed out elsewhere: the modal stays.
    emit({ type: 'session', session: { status: 'signed-out' } });
    expect(screen.getByRole('dialog')).toBeTruthy();

    emit({ type: 'session', session: SIGNED_IN });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'flags.get').length).toBe(flagReads + 1),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'My Data' })).toBeTruthy();
  });
});
