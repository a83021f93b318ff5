import { useSyncExternalStore } from 'react';

/** A document the preview can step to: enough to label the button. */
export type ReadingTarget = { deeplink: string; title: string };

/**
 * The list a preview was opened from (a feed or a search's results), as the preview sees it:
 * the documents either side of the one shown, and a way to open them. The list on screen
 * registers itself (use-reading-loop.ts); when it leaves the screen for the full-screen preview
 * it stays registered, detached, so that preview can still step through the rows it had read.
 */
export type ReadingList = {
  /** False once the list left the screen (the full-screen preview replaced it). */
  attached: boolean;
  /** The loaded document `by` places from `deeplink`; null at either end or when not held. */
  neighbour(deeplink: string, by: 1 | -1): ReadingTarget | null;
  /** Opens that neighbour (marking it read is the preview's part); false when there is none. */
  step(deeplink: string, by: 1 | -1): boolean;
};

// One tab shows one list at a time: the latest to register is the one previews step through.
// Not a signal: this is the feature's own view state, not data from the worker (src/state).
let current: ReadingList | null = null;
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

/** Registers `list` as the one previews step through; the returned call detaches it. */
export function provideReadingList(list: Omit<ReadingList, 'attached'>): () => void {
  const mine: ReadingList = { ...list, attached: true };
  current = mine;
  notify();
  return () => {
    if (current !== mine) return;
    current = { ...mine, attached: false };
    notify();
  };
}

/**
 * The document the full-screen preview showed last: the list the reader goes back to selects
 * it (and keeps it in view), so j carries on after it rather than from the top.
 */
let lastShown: string | null = null;

/** The full-screen preview shows `deeplink`. */
export function noteShown(deeplink: string) {
  lastShown = deeplink;
}

/** The document to select on returning to a list; `forgetShown` once a list has selected it. */
export const shownLast = () => lastShown;
export function forgetShown() {
  lastShown = null;
}

/** Forgets every list (a test's cleanup, or a signed-out tab). */
export function clearReadingList() {
  current = null;
  lastShown = null;
  notify();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The registered list, re-rendering when another registers or it changes. */
export function useReadingList(): ReadingList | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
