import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../contract/notifications';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => {
  setViewportWidth(1600);
  // jsdom lays nothing out: the list's scroll area is 600 px tall.
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

const note = (id: string, title: string, link: string | null, read: boolean): Notification => ({
  id,
  title,
  body: `${title}: details`,
  link,
  read,
  created_at: '2026-11-20T09:00:00.000Z',
});

/** Three notifications as the worker's mirror answers them; marking one read moves it. */
function createList() {
  const rows = [
    note('n1', 'Summary ready: Q3 results', '/feeds/home', false),
    note('n2', 'New filing from Acme', null, false),
    note('n3', 'Weekly digest', 'https://example.com/digest', true),
  ];
  const unread = () => rows.filter((n) => !n.read).length;
  return {
    window: ({ offset, count }: { offset: number; count: number }) => ({
      offset,
      rows: rows.slice(offset, offset + count),
      total: rows.length,
      unread: unread(),
    }),
    unread: () => ({ unread: unread() }),
    markRead: ({ ids }: { ids: string[] }) => {
      for (const n of rows) if (ids.includes(n.id)) n.read = true;
    },
  };
}

const header = () => {
  const bar = document.querySelector<HTMLElement>('header.top-bar');
  if (!bar) throw new Error('the top bar is missing');
  return bar;
};
const articleOf = (title: string) => screen.getByText(title).closest('article');

describe('notifications: opened one at a time, and counted in the top bar', () => {
  it('shows the unread count on the top bar and keeps it current on changes', async () => {
    let unread = 3;
    const { emit } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': createList().window,
        'notifications.unread': () => ({ unread }),
      },
    });
    const link = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(header().contains(link)).toBe(true);
    expect(link.getAttribute('href')).toBe('/notifications');
    expect(link.querySelector('.unread-badge')?.textContent).toBe('3');

    unread = 120;
    emit({ type: 'changed', store: 'notifications', keys: ['n9'] });
    await waitFor(() => expect(link.querySelector('.unread-badge')?.textContent).toBe('99+'));
    expect(link.textContent).toBe('Notifications99+, 120 unread');

    // All read: no badge, and the link reads "Notifications" again.
    unread = 0;
    emit({ type: 'changed', store: 'notifications', keys: null });
    expect(await within(header()).findByRole('link', { name: 'Notifications' })).toBe(link);
    expect(link.querySelector('.unread-badge')).toBeNull();
  });

  it('opens a notification by its title: marks that one read and goes to its link', async () => {
    const list = createList();
    const { calls, history } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': list.window,
        'notifications.unread': list.unread,
        'notifications.markRead': list.markRead,
      },
    });
    const title = await screen.findByRole('link', { name: 'Summary ready: Q3 results' });
    expect(title.getAttribute('href')).toBe('/feeds/home');
    fireEvent.click(title);

    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    const marked = calls.filter((c) => c.op === 'notifications.markRead').map((c) => c.input);
    expect(marked).toEqual([{ ids: ['n1'] }]);
  });

  it('opens another site in a new tab, and has no link where the notification has none', async () => {
    await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: { 'notifications.window': createList().window },
    });
    const external = await screen.findByRole('link', { name: 'Weekly digest' });
    expect(external.getAttribute('href')).toBe('https://example.com/digest');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(within(articleOf('New filing from Acme')!).queryByRole('link')).toBeNull();
  });

  it('marks one notification read by its own button; the badge follows', async () => {
    const list = createList();
    const { calls, emit } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': list.window,
        'notifications.unread': list.unread,
        'notifications.markRead': list.markRead,
      },
    });
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    // A read notification has no button of its own.
    expect(
      within(articleOf('Weekly digest')!).queryByRole('button', { name: /as read/ }),
    ).toBeNull();

    fireEvent.click(
      await screen.findByRole('button', { name: 'Mark "New filing from Acme" as read' }),
    );
    await waitFor(() => expect(articleOf('New filing from Acme')?.className).toBe('notification'));
    expect(articleOf('Summary ready: Q3 results')?.className).toBe('notification unread');
    const marked = calls.filter((c) => c.op === 'notifications.markRead').map((c) => c.input);
    expect(marked).toEqual([{ ids: ['n2'] }]);

    // The worker announces the change; the top bar reads the count again.
    emit({ type: 'changed', store: 'notifications', keys: ['n2'] });
    expect(
      await within(header()).findByRole('link', { name: 'Notifications, 1 unread' }),
    ).toBeTruthy();
  });
});
