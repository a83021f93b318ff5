import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../contract/user';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

const notification = (i: number): Notification => ({
  id: `n${i}`,
  title: `Filing ${i}`,
  body: `Body ${i}`,
  link: null,
  read: i > 3,
  created_at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
});
const all = Array.from({ length: 25 }, (_, i) => notification(i + 1));

describe('notifications page', () => {
  it('shows 20 a page and asks for the next page only after a full one', async () => {
    const { calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.page': ({ page }) => ({
          results: all.slice((page - 1) * 20, page * 20),
          page,
          page_size: 20,
          total: all.length,
          unread: 3,
        }),
        'notifications.markRead': () => undefined,
      },
    });
    expect(await screen.findByText('Filing 20')).toBeTruthy();
    expect(screen.queryByText('Filing 21')).toBeNull();
    expect(screen.getByText('3 unread')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Filing 25')).toBeTruthy();
    // Five came back: a short page, so there is no next one to ask for.
    await waitFor(() => expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull());
    expect(calls.filter((c) => c.op === 'notifications.page').map((c) => c.input)).toEqual([
      { page: 1 },
      { page: 2 },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('All read')).toBeTruthy();
    expect(calls.find((c) => c.op === 'notifications.markRead')?.input).toEqual({
      ids: ['n1', 'n2', 'n3'],
    });
  });

  it('follows changes made in another tab or device', async () => {
    const items = all.slice(0, 5).map((n) => ({ ...n }));
    const { emit } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.page': ({ page }) => ({
          results: page === 1 ? items.map((n) => ({ ...n })) : [],
          page,
          page_size: 20,
          total: items.length,
          unread: items.filter((n) => !n.read).length,
        }),
      },
    });
    expect(await screen.findByText('3 unread')).toBeTruthy();

    // Elsewhere, every notification was marked read; the worker's change pull says so.
    for (const n of items) n.read = true;
    emit({ type: 'changed', stores: ['notifications'] });
    expect(await screen.findByText('All read')).toBeTruthy();

    // Changes to other stores do not re-read notifications.
    items[0].read = false;
    emit({ type: 'changed', stores: ['preferences'] });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByText('All read')).toBeTruthy();
  });

  it('a re-read racing "Load more" neither cuts the list back nor skips a page', async () => {
    // Calls by number: #2 is "Load more" (page 2), #3 the re-read's page 1; both answer late.
    const late = new Map<number, () => void>();
    let callNo = 0;
    const { emit, calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.page': ({ page }) => {
          callNo += 1;
          const answer = {
            results: all.slice((page - 1) * 20, page * 20),
            page,
            page_size: 20,
            total: all.length,
            unread: 3,
          };
          if (callNo !== 2 && callNo !== 3) return answer;
          return new Promise((resolve) => late.set(callNo, () => resolve(answer)));
        },
      },
    });
    expect(await screen.findByText('Filing 20')).toBeTruthy();
    const pages = () => calls.filter((c) => c.op === 'notifications.page').map((c) => c.input);

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(late.has(2)).toBe(true));
    emit({ type: 'changed', stores: ['notifications'] });
    await new Promise((r) => setTimeout(r, 20));

    late.get(2)?.();
    await waitFor(() => expect(late.has(3)).toBe(true));
    late.get(3)?.();

    // The re-read covers every page loaded by then: both of them.
    await waitFor(() =>
      expect(pages()).toEqual([{ page: 1 }, { page: 2 }, { page: 1 }, { page: 2 }]),
    );
    expect(await screen.findByText('Filing 25')).toBeTruthy();
    expect(document.querySelectorAll('.notification-list > li')).toHaveLength(25);
    expect(screen.queryByRole('button', { name: /Load more/ })).toBeNull();
  });
});
