import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEED_FLAGS } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1440));
afterEach(() => cleanup());

describe('a feed that does not exist (issue 18)', () => {
  it('shows a not-found screen, not the server\'s "no such feed"', async () => {
    await renderShell({
      path: '/feeds/demo_markets_wire',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'feed.window': () => {
          throw apiError(404, 'not_found', 'no such feed: demo_markets_wire');
        },
        'feed.tabs': () => {
          throw apiError(404, 'not_found', 'no such feed: demo_markets_wire');
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Feed not found' })).toBeTruthy();
    expect(screen.queryByText(/no such feed/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to My Data' }).getAttribute('href')).toBe(
      '/feeds/home',
    );
  });
});
