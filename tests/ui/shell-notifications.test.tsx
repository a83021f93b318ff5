import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../contract/notifications';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The list's scroll area is 600 px tall (jsdom lays nothing out, so the test says so). */
const VIEWPORT_PX = 600;

beforeEach(() => {
  setViewportWidth(1600);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? VIEWPORT_PX : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

/**
 * A notification list of `total` items the way the worker's mirror answers windows of it:
 * position p (0-based) holds n{p+1}; the first `unread` are unread until marked.
 */
function createNotifications(total: number, unread: number) {
  const read = new Set<string>();
  const front: Notification[] = [];
  const at = (p: number): Notification => {
    if (p < front.length) return front[p];
    const i = p - front.length + 1;
    return {
      id: `n${i}`,
      title: `Filing ${i}`,
      body: `Body ${i}`,
      link: null,
      read: i > unread || read.has(`n${i}`),
      created_at: new Date(Date.UTC(2024, 0, 1)).toISOString(),
    };
  };
  const size = () => total + front.length;
  const markedOfFirst = () => [...read].filter((id) => Number(id.slice(1)) <= unread).length;
  const unreadCount = () => front.filter((n) => !n.read).length + unread - markedOfFirst();
  return {
    window: ({ offset, count }: { offset: number; count: number }) => {
      const rows: Notification[] = [];
      for (let p = offset; p < Math.min(offset + count, size()); p += 1) rows.push(at(p));
      return { offset, rows, total: size(), unread: unreadCount() };
    },
    markRead: (ids: string[]) => ids.forEach((id) => read.add(id)),
    addNewest: (n: Notification) => front.unshift(n),
  };
}

const scroller = () => screen.getByRole('list', { name: 'Notifications' });
const rows = () => within(scroller()).getAllByRole('listitem');
const windows = (calls: Array<{ op: string; input: unknown }>) =>
  calls.filter((c) => c.op === 'notifications.window').map((c) => c.input);

/** Scrolls the list so the row at 0-based position `p` is at the top (rows are 96 px). */
const scrollTo = (p: number) => {
  scroller().scrollTop = p * 96;
  fireEvent.scroll(scroller());
};

describe('notifications page: a 100,000-item list read by windows', () => {
  it('has only a window of rows in the DOM, and says how many are unread', async () => {
    const list = createNotifications(100_000, 3);
    const { calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: { 'notifications.window': list.window },
    });
    expect(await screen.findByText('Filing 1')).toBeTruthy();
    expect(screen.getByText('3 unread')).toBeTruthy();
    // A screenful (600 px of 96 px rows) and a few either side: never the 100,000.
    expect(rows().length).toBeGreaterThanOrEqual(7);
    expect(rows().length).toBeLessThanOrEqual(20);
    expect(rows()[0].getAttribute('aria-setsize')).toBe('100000');
    expect(rows()[0].getAttribute('aria-posinset')).toBe('1');
    for (const input of windows(calls)) {
      expect(input).toMatchObject({ offset: 0 });
      expect((input as { count: number }).count).toBeLessThanOrEqual(500);
    }
  });

  it('shows placeholders where rows are not loaded, and asks for the window it scrolls to', async () => {
    const list = createNotifications(100_000, 3);
    const held: Array<() => void> = [];
    const { calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': (input) =>
          input.offset === 0
            ? list.window(input)
            : new Promise((resolve) => held.push(() => resolve(list.window(input)))),
      },
    });
    await screen.findByText('Filing 1');
    const before = windows(calls).length;

    scrollTo(50_000);
    // Not loaded yet: skeleton rows where the notifications will be.
    await waitFor(() =>
      expect(within(scroller()).getAllByText('Loading…').length).toBeGreaterThan(0),
    );
    const asked = windows(calls).slice(before) as Array<{ offset: number; count: number }>;
    expect(asked.length).toBeGreaterThan(0);
    // Each window asked for lies around position 50,000, none near the top.
    for (const { offset, count } of asked) {
      expect(offset).toBeGreaterThanOrEqual(49_900);
      expect(offset + count).toBeLessThanOrEqual(50_100);
    }
    expect(asked.some(({ offset, count }) => offset <= 50_000 && 50_000 < offset + count)).toBe(
      true,
    );

    for (const release of held.splice(0)) release();
    expect(await screen.findByText('Filing 50001')).toBeTruthy();
    expect(within(scroller()).queryAllByText('Loading…')).toHaveLength(0);
    expect(rows().length).toBeLessThanOrEqual(20);
  });

  it('re-reads the shown window for a change to a shown row, not for one scrolled away', async () => {
    const list = createNotifications(100_000, 60_000);
    const { calls, emit } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: { 'notifications.window': list.window },
    });
    await screen.findByText('Filing 1');
    scrollTo(50_000);
    await screen.findByText('Filing 50001');
    await waitFor(() => expect(screen.getByText('99+ unread')).toBeTruthy());
    const settled = windows(calls).length;

    // n3 was read at the top, and is scrolled away now: nothing shown changes.
    list.markRead(['n3']);
    emit({ type: 'changed', store: 'notifications', keys: ['n3'] });
    // Another store's change is not this list's either.
    emit({ type: 'changed', store: 'account', keys: null });
    // n50001 is on screen: its window is read again.
    list.markRead(['n50001']);
    emit({ type: 'changed', store: 'notifications', keys: ['n50001'] });

    await waitFor(() => expect(windows(calls).length).toBeGreaterThan(settled));
    const reread = (windows(calls).slice(settled) as Array<{ offset: number }>).map(
      (w) => w.offset,
    );
    // The shown windows (around 50,000) were read once each, for the last event only: had the
    // events before it read anything, a window would show up twice.
    expect(reread.every((offset) => offset >= 49_900 && offset < 50_100)).toBe(true);
    expect(new Set(reread).size).toBe(reread.length);
    const row = screen.getByText('Filing 50001').closest('article');
    await waitFor(() => expect(row?.className).toBe('notification'));
  });

  it('re-reads for a key it has never read: a new notification shows at the top', async () => {
    const list = createNotifications(100_000, 0);
    const { emit } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: { 'notifications.window': list.window },
    });
    await screen.findByText('Filing 1');
    expect(screen.getByText('All read')).toBeTruthy();

    list.addNewest({
      id: 'fresh',
      title: 'Rates decision published',
      body: 'The central bank kept rates unchanged.',
      link: null,
      read: false,
      created_at: new Date(Date.UTC(2024, 1, 1)).toISOString(),
    });
    emit({ type: 'changed', store: 'notifications', keys: ['fresh'] });
    expect(await screen.findByText('Rates decision published')).toBeTruthy();
    expect(screen.getByText('1 unread')).toBeTruthy();
    expect(rows()[0].getAttribute('aria-setsize')).toBe('100001');
  });

  it('"Mark all as read" marks the unread rows loaded, at most 100 ids a call', async () => {
    const list = createNotifications(100_000, 200);
    const { calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': list.window,
        'notifications.markRead': ({ ids }) => list.markRead(ids),
      },
    });
    await screen.findByText('Filing 1');
    // Scrolled to row 101: the rows from the top to about 150 have been read.
    scrollTo(100);
    await screen.findByText('Filing 101');
    await waitFor(() => expect(screen.queryAllByText('Loading…')).toHaveLength(0));

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    // 200 were unread; the 150 loaded are marked, 50 are left.
    expect(await screen.findByText('50 unread')).toBeTruthy();
    const marked = calls
      .filter((c) => c.op === 'notifications.markRead')
      .map((c) => (c.input as { ids: string[] }).ids);
    const ids = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, k) => `n${from + k}`);
    expect(marked).toEqual([ids(1, 100), ids(101, 150)]);
  });

  it('shows the generic failure text, not the raw one, when marking fails', async () => {
    const list = createNotifications(30, 5);
    await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': list.window,
        'notifications.markRead': () => {
          throw apiError(422, 'http_error', 'POST /notifications/read failed with HTTP 422');
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Oops! Something Went Wrong. Please Try Again Later :(',
    );
    expect(screen.queryByText(/HTTP 422/)).toBeNull();
  });

  it('says so when there are none', async () => {
    await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: { 'notifications.window': createNotifications(0, 0).window },
    });
    expect(await screen.findByText('You have no notifications.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});
