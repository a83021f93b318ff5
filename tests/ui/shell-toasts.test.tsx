import { act, cleanup, screen } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

const GENERIC_FAILURE = 'Oops! Something Went Wrong. Please Try Again Later :(';

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
  vi.useRealTimers();
  act(() => toast.remove());
  cleanup();
});

async function signedInShell() {
  const shell = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
  await screen.findByRole('heading', { level: 1, name: 'My Data' });
  return shell;
}

describe('toasts', () => {
  it("shows the worker's toasts, and its failures in the spec's words, not the raw text", async () => {
    const { emit } = await signedInShell();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await emit({ type: 'toast', kind: 'success', message: 'Copied to clipboard' });
    await emit({
      type: 'toast',
      kind: 'error',
      message: 'POST /notifications/read failed with HTTP 422',
    });
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(await screen.findByText(GENERIC_FAILURE)).toBeTruthy();
    expect(screen.queryByText(/HTTP 422/)).toBeNull();
    warn.mockRestore();
  });

  it('a success toast goes after 2 s, an error toast after 4 s (000 §9)', async () => {
    const { emit } = await signedInShell();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.useFakeTimers();
    await emit({ type: 'toast', kind: 'success', message: 'Saved to Pictures' });
    await emit({ type: 'toast', kind: 'error', message: 'could not save' });
    expect(screen.getByText('Saved to Pictures')).toBeTruthy();

    // Time passes in steps, so React renders between them as it would in a browser. A toast
    // leaves the page 1 s after its time is up, once its exit has played (react-hot-toast).
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += 100) await act(() => vi.advanceTimersByTimeAsync(100));
    };
    await pass(2_800);
    expect(screen.getByText('Saved to Pictures')).toBeTruthy();
    await pass(400);
    expect(screen.queryByText('Saved to Pictures')).toBeNull();
    expect(screen.getByText(GENERIC_FAILURE)).toBeTruthy();

    await pass(1_600);
    expect(screen.getByText(GENERIC_FAILURE)).toBeTruthy();
    await pass(400);
    expect(screen.queryByText(GENERIC_FAILURE)).toBeNull();
    warn.mockRestore();
  });

  it('shows at most 20 at once, the newest', async () => {
    const { emit } = await signedInShell();
    for (let i = 1; i <= 25; i++) {
      await emit({ type: 'toast', kind: 'blank', message: `Toast number ${i}` });
    }
    expect(await screen.findByText('Toast number 25')).toBeTruthy();
    const shown = screen.queryAllByText(/^Toast number \d+$/).map((el) => el.textContent);
    expect(shown).toHaveLength(20);
    expect(shown).not.toContain('Toast number 5');
    expect(shown).toContain('Toast number 6');
  });
});
