import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEED_FLAGS, createFeed, storyCard } from './feed-fixtures';
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
  vi.useRealTimers();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

function renderFeed() {
  const feed = createFeed(3);
  const view = renderShell({
    path: '/feeds/home',
    session: SIGNED_IN,
    handlers: {
      'flags.get': () => FEED_FLAGS,
      'feed.window': feed.window,
      'feed.tabs': feed.tabs,
      'doc.markAllRead': () => {
        feed.setRead(['d1', 'd2', 'd3'], 'read');
        // d2 was read already: the answer names only what this request marked.
        return { deeplinks: ['d1', 'd3'], has_more: false };
      },
      'doc.markUnread': ({ deeplinks }) => feed.setRead(deeplinks, 'unread'),
    },
  });
  return view;
}

const ops = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);

describe('mark all read', () => {
  it('marks the view in one call and offers Undo, which restores exactly what it marked', async () => {
    const { calls } = await renderFeed();
    await screen.findByText('Story 1');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    const status = await screen.findByText('Marked 2 documents read.');
    expect(ops(calls, 'doc.markAllRead')).toEqual([
      expect.objectContaining({ board: 'home', tab: null, source: null }),
    ]);
    fireEvent.click(within(status).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(ops(calls, 'doc.markUnread')).toEqual([{ deeplinks: ['d1', 'd3'] }]),
    );
    expect(screen.queryByText('Marked 2 documents read.')).toBeNull();
  });

  it('offers Undo for 5 seconds only', async () => {
    await renderFeed();
    await screen.findByText('Story 1');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_999);
    });
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('asks first on Shift+A, and does nothing when cancelled', async () => {
    const { calls } = await renderFeed();
    await screen.findByText('Story 1');
    fireEvent.keyDown(document.body, { key: 'A', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Mark all as read?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ops(calls, 'doc.markAllRead')).toEqual([]);

    fireEvent.keyDown(document.body, { key: 'A', shiftKey: true });
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark all read' }),
    );
    expect(await screen.findByText('Marked 2 documents read.')).toBeTruthy();
    expect(ops(calls, 'doc.markAllRead')).toHaveLength(1);
  });

  it('lists the shortcuts on ?, with the setting that opening marks read', async () => {
    const { calls } = await renderFeed();
    await screen.findByText('Story 1');
    fireEvent.keyDown(document.body, { key: '?' });
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const action of ['Next document', 'Previous document', 'Mark all read (asks first)']) {
      expect(within(sheet).getByText(action)).toBeTruthy();
    }
    const setting = within(sheet).getByRole('checkbox', {
      name: 'Opening a document marks it read',
    }) as HTMLInputElement;
    expect(setting.checked).toBe(true);
    fireEvent.click(setting);
    await waitFor(() =>
      expect(ops(calls, 'preferences.update')).toContainEqual({ open_marks_read: false }),
    );
  });
});

describe("the reader's setting 'opening a document marks it read'", () => {
  it('leaves an opened document unread when turned off', async () => {
    const feed = createFeed(3);
    const { calls } = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'preferences.get': () => ({ nav_state: null, overlay_widths: {}, open_marks_read: false }),
        'feed.window': feed.window,
        'feed.tabs': feed.tabs,
        'doc.get': ({ deeplink }) => ({
          ...storyCard(Number(deeplink.slice(1))),
          content: '<p>Body.</p>',
          body: 'Body.',
        }),
        'doc.setRead': ({ deeplinks, status }) => feed.setRead(deeplinks, status),
      },
    });
    await screen.findByText('Story 1');
    fireEvent.click(screen.getByRole('link', { name: 'Story 2' }));
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByRole('heading', { level: 3, name: 'Story 2' });
    expect(within(panel).getByRole('button', { name: 'Mark as read' })).toBeTruthy();
    expect(ops(calls, 'doc.setRead')).toEqual([]);
  });
});
