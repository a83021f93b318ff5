import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Preferences } from '../../contract/user';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1280));

const search = (history: { location: { search: string } }) =>
  Object.fromEntries(new URLSearchParams(history.location.search));

describe('the assistant overlay is gated (000 §2)', () => {
  it('does not open in notebooks, and its overlay- params leave the URL without a new entry', async () => {
    const { history } = await renderShell({
      path: '/notebooks?q=rates&overlay-type=ask-needl&overlay-preview_askneedl=doc-1',
      session: SIGNED_IN,
    });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(search(history)).toEqual({ q: 'rates' }));
    expect(history.location.pathname).toBe('/notebooks');
    expect(history.length).toBe(1);
    expect(screen.queryByTestId('overlay')).toBeNull();
  });

  it('does not open when ask_needl_copilot is off, whatever the URL says', async () => {
    const { history } = await renderShell({
      path: '/feeds/home?overlay-type=ask-needl',
      session: SIGNED_IN,
      handlers: { 'flags.get': () => ({ my_data: true }) },
    });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    await waitFor(() => expect(history.location.search).toBe(''));
    expect(screen.queryByTestId('overlay')).toBeNull();
    // Nothing closed the navigation for a panel that never showed.
    expect(document.getElementById('side-nav')?.getAttribute('data-state')).toBe('opened');
  });

  it('opens where it is allowed, and other panels still open in notebooks', async () => {
    await renderShell({ path: '/feeds/home?overlay-type=ask-needl', session: SIGNED_IN });
    const panel = await screen.findByTestId('overlay');
    expect(within(panel).getAllByRole('heading')[0].textContent).toBe('AskNeedl');
    cleanup();

    await renderShell({ path: '/notebooks?overlay-type=portfolio', session: SIGNED_IN });
    const portfolio = await screen.findByTestId('overlay');
    expect(within(portfolio).getAllByRole('heading')[0].textContent).toBe('Create Portfolio');
  });
});

describe('overlay focus', () => {
  it('moves into the panel when it opens; Escape closes it and focus goes to the page', async () => {
    const { history } = await renderShell({
      path: '/feeds/home?q=rates&overlay-type=portfolio',
      session: SIGNED_IN,
    });
    const panel = await screen.findByTestId('overlay');
    const heading = within(panel).getByRole('heading', { name: 'Create Portfolio' });
    await waitFor(() => expect(document.activeElement).toBe(heading));

    fireEvent.keyDown(heading, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('overlay')).toBeNull());
    expect(search(history)).toEqual({ q: 'rates' });
    expect(document.activeElement).toBe(document.getElementById('main-content'));
  });

  it('returns to the button that opened it when it closes', async () => {
    await renderShell({ path: '/search?q=rates', session: SIGNED_IN });
    const opener = await screen.findByRole('button', { name: 'Open AskNeedl' });
    opener.focus();
    fireEvent.click(opener);

    const panel = await screen.findByTestId('overlay');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(panel).getByRole('heading', { name: 'AskNeedl' })),
    );
    const close = within(panel).getByRole('button', { name: 'Close panel' });
    close.focus();
    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByTestId('overlay')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open AskNeedl' }));
  });
});

/** preferences.update answers only when the test says so, like a worker that is slow to answer. */
function slowPreferences() {
  const pending: Array<{ input: Partial<Preferences>; answer: () => void }> = [];
  const handler = (input: Partial<Preferences>) =>
    new Promise<Preferences>((resolve) => {
      pending.push({
        input,
        answer: () => resolve({ nav_state: null, overlay_widths: { ...input.overlay_widths } }),
      });
    });
  return { pending, handler };
}

describe('overlay width while resizing', () => {
  const ASSISTANT = '/feeds/home?overlay-type=ask-needl';
  const valueNow = () =>
    Number(screen.getByRole('separator', { name: 'Resize panel' }).getAttribute('aria-valuenow'));

  it('keeps the width the user gave while its save is pending; key presses are saved once', async () => {
    const slow = slowPreferences();
    const { emit, calls } = await renderShell({
      path: ASSISTANT,
      session: SIGNED_IN,
      handlers: { 'preferences.update': slow.handler },
    });
    const handle = await screen.findByRole('separator', { name: 'Resize panel' });
    for (let i = 0; i < 15; i += 1) fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(valueNow()).toBe(50);

    // The worker echoes an older width while the newest is not stored yet: the panel stays.
    emit({
      type: 'preferences',
      preferences: { nav_state: null, overlay_widths: { 'ask-needl': 36 } },
    });
    expect(valueNow()).toBe(50);

    await waitFor(() => expect(slow.pending).toHaveLength(1));
    expect(slow.pending[0].input).toEqual({ overlay_widths: { 'ask-needl': 50 } });
    slow.pending[0].answer();
    await waitFor(() => expect(calls.filter((c) => c.op === 'preferences.update')).toHaveLength(1));
    expect(valueNow()).toBe(50);
    expect(screen.getByTestId('overlay').style.width).toBe('640px');
  });

  it('a late answer to an earlier save does not undo a newer width', async () => {
    const slow = slowPreferences();
    await renderShell({
      path: ASSISTANT,
      session: SIGNED_IN,
      handlers: { 'preferences.update': slow.handler },
    });
    const handle = await screen.findByRole('separator', { name: 'Resize panel' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    await waitFor(() => expect(slow.pending).toHaveLength(1));
    expect(slow.pending[0].input).toEqual({ overlay_widths: { 'ask-needl': 36 } });

    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(valueNow()).toBe(37);
    // The answer to the save of 36 arrives while newer widths wait for theirs.
    slow.pending[0].answer();
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(valueNow()).toBe(38);
    // The next save leaves on a timer, after the answer (promise turns in the fake workspace,
    // no timer) was handled: had it set the width back to 36, the panel and this save would say 36.
    await waitFor(() => expect(slow.pending).toHaveLength(2));
    expect(valueNow()).toBe(38);
    expect(slow.pending[1].input).toEqual({ overlay_widths: { 'ask-needl': 38 } });
    slow.pending[1].answer();
    await waitFor(() => expect(screen.getByTestId('overlay').style.width).toBe('486px'));
    expect(valueNow()).toBe(38);
  });

  it('saves a drag once, at its end', async () => {
    const { calls } = await renderShell({ path: ASSISTANT, session: SIGNED_IN });
    const handle = await screen.findByRole('separator', { name: 'Resize panel' });
    fireEvent.pointerDown(handle, { clientX: 800, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 700, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 600, pointerId: 1 });
    expect(calls.some((c) => c.op === 'preferences.update')).toBe(false);
    fireEvent.pointerUp(handle, { clientX: 600, pointerId: 1 });
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'preferences.update').map((c) => c.input)).toEqual([
        { overlay_widths: { 'ask-needl': 35 + (200 / 1280) * 100 } },
      ]),
    );
  });
});

describe('under StrictMode (as in the browser)', () => {
  it('a page loaded with an overlay closes the navigation fully', async () => {
    await renderShell({
      path: '/feeds/home?overlay-type=portfolio',
      session: SIGNED_IN,
      strict: true,
    });
    await screen.findByTestId('overlay');
    // close, then closed after 500 ms (000 §4); a lost timer would leave it in close.
    await waitFor(
      () => expect(document.getElementById('side-nav')?.getAttribute('data-state')).toBe('closed'),
      { timeout: 2000 },
    );
  });
});

describe('the navigation beside an overlay', () => {
  const navState = () => document.getElementById('side-nav')?.getAttribute('data-state');

  it('does not peek while an overlay edge is dragged to the left of the window', async () => {
    await renderShell({ path: '/feeds/home?overlay-type=ask-needl', session: SIGNED_IN });
    const handle = await screen.findByRole('separator', { name: 'Resize panel' });
    await waitFor(() => expect(navState()).toBe('closed'));
    const zone = screen.getByTestId('nav-peek-zone');

    fireEvent.pointerDown(handle, { clientX: 800, pointerId: 1 });
    // The pointer, still dragging, crosses the peek zone at the window's left edge.
    fireEvent.pointerMove(handle, { clientX: 4, pointerId: 1 });
    fireEvent.mouseEnter(zone);
    fireEvent.mouseMove(document, { clientX: 4 });
    expect(navState()).toBe('closed');

    fireEvent.pointerUp(handle, { clientX: 4, pointerId: 1 });
    // The drag is over: the left edge peeks the navigation again.
    fireEvent.mouseEnter(await screen.findByTestId('nav-peek-zone'));
    await waitFor(() => expect(navState()).toBe('peek'));
  });

  it('opens beside a preview at its 80% maximum and leaves the preview its width', async () => {
    await renderShell({
      path: '/feeds/home?overlay-type=preview&overlay-source=rss&overlay-category=feeds&overlay-deeplink=doc-1',
      session: SIGNED_IN,
    });
    const panel = await screen.findByTestId('overlay');
    expect(panel.style.width).toBe('1024px');
    await waitFor(() => expect(navState()).toBe('closed'));

    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    await waitFor(() => expect(navState()).toBe('opened'));
    expect(screen.getByTestId('overlay').style.width).toBe('1024px');
  });
});
