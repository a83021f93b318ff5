import { batch, signal } from '@preact/signals-react';
import { TOAST_TEXT } from '../../contract/constants';
import type { FeatureFlags, NavState, Preferences } from '../../contract/user';
import type { SessionState, WorkerEvent } from '../../contract/worker-api';
import type { WorkspaceClient } from '../workspace-client';

export type ToastKind = Extract<WorkerEvent, { type: 'toast' }>['kind'];

export type ShellStateDeps = {
  client: WorkspaceClient;
  toast: (kind: ToastKind, message: string) => void;
  /** True while this tab shows a sign-in, sign-up or password screen. */
  isOnAuthPath: () => boolean;
  /** This tab signed out: go to the variant's sign-out route. */
  goToSignedOutRoute: () => void;
  reload: () => void;
  /** Whether an ad blocker hides bait elements (sent with the analytics report). */
  adblockerInstalled?: () => boolean;
};

/**
 * How a new overlay width is kept: `live` only shows it (a drag in progress), `now` stores it
 * at once (a drag's end, maximise), `soon` stores it once the user has stopped changing it for
 * OVERLAY_WIDTH_SAVE_DELAY_MS (key presses on the resize handle).
 */
export type OverlayWidthSave = 'live' | 'now' | 'soon';

/** Quiet time after the last resize key press before the width is stored. */
export const OVERLAY_WIDTH_SAVE_DELAY_MS = 300;

/**
 * The only writer of signals (shared/ARCHITECTURE.md "The UI"): worker events and the few user
 * actions that change shell state come through here; components only read.
 */
export function createShellState(deps: ShellStateDeps) {
  const { client } = deps;
  const $session = signal<SessionState | null>(null);
  const $flags = signal<FeatureFlags>({});
  const $preferences = signal<Preferences | null>(null);
  /** The sign-in-required modal (000 §2 "Generic screens"). */
  const $signInRequired = signal(false);
  const $online = signal(true);
  const $outboxPending = signal(0);
  const $navState = signal<NavState>('opened');
  /** The width (percent) the user last gave each overlay type. */
  const $overlayWidths = signal<Record<string, number>>({});
  /** An overlay's edge is being dragged: the navigation's peek must not open under the pointer. */
  const $overlayResizing = signal(false);

  let accountLoad: Promise<void> | null = null;
  /** The next page's heading takes focus (after sign-in, so focus does not stay on the body). */
  let headingFocusRequested = false;
  /** Set while this tab signs out, so its own logout event is never mistaken for another tab's. */
  let signingOut = false;

  /*
   * The width on screen is the user's, so it is authoritative here: an answer to an earlier save
   * (or the worker's preferences event for it) arrives late and must not undo a newer width.
   * Every local change gets a number; a save remembers the number it carried.
   */
  let widthChange = 0;
  let widthSavesInFlight = 0;
  let widthSaveTimer: ReturnType<typeof setTimeout> | null = null;
  const widthSavePending = () => widthSaveTimer !== null || widthSavesInFlight > 0;

  /** `widths: false` keeps the local overlay widths (a newer local change is not yet stored). */
  const setPreferences = (preferences: Preferences, widths = !widthSavePending()) =>
    batch(() => {
      $preferences.value = preferences;
      if (widths) $overlayWidths.value = { ...preferences.overlay_widths };
    });

  const setSession = (session: SessionState) => {
    const wasSignedIn = $session.value?.status === 'signed-in';
    $session.value = session;
    // A new account's flags and preferences must be read afresh.
    if (session.status === 'signed-out' || !wasSignedIn) accountLoad = null;
  };

  /** Flags and preferences of the signed-in account, read once per session. */
  const loadAccount = () => {
    accountLoad ??= Promise.all([
      client.call('flags.get', {}),
      client.call('preferences.get', {}),
    ]).then(
      ([flags, preferences]) => {
        batch(() => {
          $flags.value = flags;
          setPreferences(preferences);
        });
        reportSession();
      },
      (error: unknown) => {
        accountLoad = null;
        throw error;
      },
    );
    return accountLoad;
  };

  /** The analytics report (000 §3, §7); the worker sends it once per session however often asked. */
  const reportSession = () => {
    const session = $session.value;
    if (session?.status !== 'signed-in') return;
    const { user } = session;
    void client
      .call('analytics.report', {
        adblocker_installed: deps.adblockerInstalled?.() ?? false,
        mp_info: {
          event_name: 'session_start',
          distinct_id: user.id,
          email: user.email,
          name: user.name,
        },
        mp_error: null,
      })
      .catch(() => {});
  };

  const handle = (event: WorkerEvent) => {
    switch (event.type) {
      case 'session':
        setSession(event.session);
        // Signed in again (in another tab): the session is back, so the sign-in-required modal
        // has nothing left to ask. Its account may differ: read flags and preferences afresh.
        if (event.session.status === 'signed-in' && $signInRequired.peek()) {
          $signInRequired.value = false;
          loadAccount().catch(() => {});
        }
        return;
      case 'logout':
        setSession({ status: 'signed-out' });
        if (event.reason === 'signed-out' && (event.origin_tab === client.tabId || signingOut)) {
          deps.goToSignedOutRoute();
        } else if (!deps.isOnAuthPath()) {
          $signInRequired.value = true;
        }
        return;
      case 'reload':
        deps.reload();
        return;
      case 'flags':
        $flags.value = event.flags;
        return;
      case 'preferences':
        setPreferences(event.preferences);
        return;
      case 'outbox':
        $outboxPending.value = event.pending;
        return;
      case 'online':
        $online.value = event.online;
        return;
      case 'toast':
        // The worker's failure toasts carry its raw text ("POST /notifications/read failed with
        // HTTP 422"): the user reads the spec's generic failure text (000 §8) instead.
        deps.toast(event.kind, event.kind === 'error' ? TOAST_TEXT.genericFailure : event.message);
        if (event.kind === 'error') console.warn('worker error toast:', event.message);
        return;
      case 'changed':
        // Screens that mirror stores re-read on their own; the shell shows none of them.
        return;
    }
  };

  const setNavState = (state: NavState) => {
    $navState.value = state;
  };

  const rememberNavState = (state: 'opened' | 'closed') => {
    void client.call('preferences.update', { nav_state: state }).then(setPreferences, () => {});
  };

  const saveOverlayWidths = () => {
    if (widthSaveTimer !== null) clearTimeout(widthSaveTimer);
    widthSaveTimer = null;
    const carried = widthChange;
    widthSavesInFlight += 1;
    void client.call('preferences.update', { overlay_widths: $overlayWidths.value }).then(
      (preferences) => {
        widthSavesInFlight -= 1;
        // Only the answer to the newest change may set the widths; older ones are stale.
        setPreferences(preferences, carried === widthChange && !widthSavePending());
      },
      () => {
        widthSavesInFlight -= 1;
      },
    );
  };

  /** A new width for an overlay type, shown at once and stored as `save` says. */
  const setOverlayWidth = (type: string, percent: number, save: OverlayWidthSave) => {
    widthChange += 1;
    $overlayWidths.value = { ...$overlayWidths.value, [type]: percent };
    if (save === 'now') {
      saveOverlayWidths();
    } else if (save === 'soon') {
      if (widthSaveTimer !== null) clearTimeout(widthSaveTimer);
      widthSaveTimer = setTimeout(saveOverlayWidths, OVERLAY_WIDTH_SAVE_DELAY_MS);
    }
  };

  const requestHeadingFocus = () => {
    headingFocusRequested = true;
  };

  /** True once after requestHeadingFocus: the page heading that asks first takes the focus. */
  const takeHeadingFocus = () => {
    const requested = headingFocusRequested;
    headingFocusRequested = false;
    return requested;
  };

  const setOverlayResizing = (resizing: boolean) => {
    $overlayResizing.value = resizing;
  };

  /** Sign out here: the worker tells every other tab, which shows the sign-in-required modal. */
  const signOut = async () => {
    signingOut = true;
    try {
      await client.call('auth.signOut', {});
      setSession({ status: 'signed-out' });
      deps.goToSignedOutRoute();
    } finally {
      signingOut = false;
    }
  };

  return {
    $session,
    $flags,
    $preferences,
    $signInRequired,
    $online,
    $outboxPending,
    $navState,
    $overlayWidths,
    $overlayResizing,
    handle,
    setSession,
    loadAccount,
    setNavState,
    rememberNavState,
    setOverlayWidth,
    setOverlayResizing,
    requestHeadingFocus,
    takeHeadingFocus,
    signOut,
  };
}

export type ShellState = ReturnType<typeof createShellState>;
