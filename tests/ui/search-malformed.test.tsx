import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEED_FLAGS } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeAll(() => import('../../src/features/search/search-page'));
beforeEach(() => setViewportWidth(1440));
afterEach(() => cleanup());

describe('a malformed query (issue 18)', () => {
  it('says what is wrong in the server\'s words, with no pointless "Try again"', async () => {
    await renderShell({
      path: '/search?q=((',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'search.tags': () => [],
        'search.exchanges': () => [],
        'search.window': () => {
          throw apiError(400, 'bad_request', 'The query has an unclosed "(".');
        },
      },
    });
    // The first render waits for the search screen's module (loaded on demand).
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toBe('The query has an unclosed "(".');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('No search results found.')).toBeNull();
  });
});
