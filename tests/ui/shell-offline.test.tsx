import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeEach(() => setViewportWidth(1600));

const banner = () => screen.queryByText('Offline: the server cannot be reached.');

describe('offline', () => {
  it('shows a banner while the worker cannot reach the server, and what waits', async () => {
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('button', { name: 'Sign out' }, { timeout: 10_000 });
    expect(banner()).toBeNull();

    emit({ type: 'online', online: false });
    emit({ type: 'outbox', pending: 2 });
    expect(banner()).not.toBeNull();
    expect(
      screen.getByText(
        'Showing what this browser has saved. 2 changes will be sent when it is back.',
      ),
    ).toBeTruthy();
    // Not "Saving 2 changes…": nothing is being saved while offline.
    expect(screen.queryByText(/Saving 2 changes/)).toBeNull();

    emit({ type: 'online', online: true });
    expect(banner()).toBeNull();
  });

  it('retries a failed panel by itself when the server is back', async () => {
    let fail = true;
    const { emit, calls } = await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': ({ offset }) => {
          if (fail) throw new Error('notifications.window did not reach the server');
          return { offset, rows: [], total: 0, unread: 0 };
        },
      },
    });
    await screen.findByRole('button', { name: 'Try again' });
    const tries = () => calls.filter((c) => c.op === 'notifications.window').length;
    const before = tries();

    emit({ type: 'online', online: false });
    fail = false;
    expect(tries()).toBe(before);
    emit({ type: 'online', online: true });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull());
    expect(tries()).toBeGreaterThan(before);
  });
});
