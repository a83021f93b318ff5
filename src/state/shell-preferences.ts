import { batch, signal } from '@preact/signals-react';
import type { NavState, Preferences } from '../../contract/user';
import type { WorkspaceClient } from '../workspace-client';
import { createOverlayWidths } from './overlay-widths';

/** The account's preferences, with the overlay widths they hold (overlay-widths.ts). */
export function createPreferences(client: WorkspaceClient) {
  const $preferences = signal<Preferences | null>(null);
  const widths = createOverlayWidths({
    client,
    saved: (preferences, current) => setPreferences(preferences, current),
  });

  /** `takeWidths: false` keeps the local overlay widths (a newer local change is not stored). */
  const setPreferences = (preferences: Preferences, takeWidths = !widths.pending()) =>
    batch(() => {
      $preferences.value = preferences;
      if (takeWidths) widths.show(preferences.overlay_widths);
    });

  return { $preferences, setPreferences, widths };
}

/** The side navigation's state, the one the user keeps, and the heading that takes focus. */
export function createNav(deps: {
  client: WorkspaceClient;
  setPreferences: (preferences: Preferences) => void;
}) {
  const $navState = signal<NavState>('opened');
  /** The next page's heading takes focus (after sign-in, so focus does not stay on the body). */
  let headingFocusRequested = false;

  return {
    $navState,
    setNavState(state: NavState) {
      $navState.value = state;
    },
    rememberNavState(state: 'opened' | 'closed') {
      void deps.client
        .call('preferences.update', { nav_state: state })
        .then(deps.setPreferences, () => {});
    },
    requestHeadingFocus() {
      headingFocusRequested = true;
    },
    /** True once after requestHeadingFocus: the page heading that asks first takes the focus. */
    takeHeadingFocus() {
      const requested = headingFocusRequested;
      headingFocusRequested = false;
      return requested;
    },
  };
}
