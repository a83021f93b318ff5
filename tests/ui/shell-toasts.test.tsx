import { act, cleanup, screen } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOAST_LIMIT } from '../../contract/constants';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => {
  setViewportWidth(1600);
  // react-hot-toast asks for the reduced-motion preference; jsdom has no matchMedia.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

describe('toasts', () => {
  it("shows the worker's toast events", async () => {
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    await emit({ type: 'toast', kind: 'error', message: 'Feed "rates" could not be saved' });
    expect(await screen.findByText('Feed "rates" could not be saved')).toBeTruthy();
  });

  it(`shows at most ${TOAST_LIMIT} at once`, async () => {
    const { emit } = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
    await screen.findByRole('heading', { level: 1, name: 'My Data' });
    for (let i = 1; i <= TOAST_LIMIT + 5; i++) {
      await emit({ type: 'toast', kind: 'blank', message: `Toast number ${i}` });
    }
    expect(await screen.findByText(`Toast number ${TOAST_LIMIT + 5}`)).toBeTruthy();
    expect(screen.queryAllByText(/^Toast number \d+$/).length).toBeLessThanOrEqual(TOAST_LIMIT);
  });
});
