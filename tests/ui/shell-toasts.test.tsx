import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

const GENERIC_FAILURE = 'Oops! Something Went Wrong. Please Try Again Later :(';

beforeEach(() => {
  setViewportWidth(1600);
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

async function signedInShell() {
  const shell = await renderShell({ path: '/feeds/home', session: SIGNED_IN });
  await screen.findByRole('heading', { level: 1, name: 'My Data' });
  return shell;
}

// The spec's durations (2 s, 4 s) and its limit of 20 toasts are react-hot-toast's defaults too:
// a test of them here could not fail, so none is kept (issue 19).
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
    // Each toast's message is a polite live region (role status): exactly these two, in the
    // spec's words.
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('status')
          .map((el) => el.textContent)
          .sort(),
      ).toEqual(['Copied to clipboard', GENERIC_FAILURE]),
    );
    expect(screen.queryByText(/HTTP 422/)).toBeNull();
    warn.mockRestore();
  });
});
