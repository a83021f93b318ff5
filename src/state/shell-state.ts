import { signal } from '@preact/signals-react';
import { TOAST_TEXT } from '../../contract/constants';
import type { FeatureFlags } from '../../contract/user';
import type { WorkerEvent } from '../../contract/worker-api';
import { createNav, createPreferences } from './shell-preferences';
import { createSession, type SessionDeps } from './shell-session';

export { OVERLAY_WIDTH_SAVE_DELAY_MS, type OverlayWidthSave } from './overlay-widths';

export type ToastKind = Extract<WorkerEvent, { type: 'toast' }>['kind'];

export type ShellStateDeps = SessionDeps & {
  toast: (kind: ToastKind, message: string) => void;
  reload: () => void;
};

/**
 * The only writer of signals (shared/ARCHITECTURE.md "The UI"): worker events and the few user
 * actions that change shell state come through here; components only read. Its parts: the
 * session and the account it loads (shell-session.ts), the flags, the preferences with the
 * overlay widths' save machine (shell-preferences.ts, overlay-widths.ts) and the navigation.
 */
export function createShellState(deps: ShellStateDeps) {
  const { client } = deps;
  const $flags = signal<FeatureFlags>({});
  const $online = signal(true);
  const $outboxPending = signal(0);
  const preferences = createPreferences(client);
  const { widths, setPreferences } = preferences;
  const session = createSession(deps, {
    setFlags: (flags) => ($flags.value = flags),
    setPreferences,
  });
  const nav = createNav({ client, setPreferences });

  const handle = (event: WorkerEvent) => {
    switch (event.type) {
      case 'session':
        return session.onSession(event.session);
      case 'logout':
        return session.onLogout(event);
      case 'reload':
        return deps.reload();
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

  return {
    $session: session.$session,
    $flags,
    $preferences: preferences.$preferences,
    /** The sign-in-required modal (000 §2 "Generic screens"). */
    $signInRequired: session.$signInRequired,
    $online,
    $outboxPending,
    $navState: nav.$navState,
    /** The width (percent) the user last gave each overlay type. */
    $overlayWidths: widths.$overlayWidths,
    /** An overlay's edge is being dragged: the navigation's peek must not open under the pointer. */
    $overlayResizing: widths.$overlayResizing,
    handle,
    setSession: session.setSession,
    loadAccount: session.loadAccount,
    setNavState: nav.setNavState,
    rememberNavState: nav.rememberNavState,
    setOverlayWidth: widths.setOverlayWidth,
    setOverlayResizing: widths.setOverlayResizing,
    requestHeadingFocus: nav.requestHeadingFocus,
    takeHeadingFocus: nav.takeHeadingFocus,
    signOut: session.signOut,
    reportEvent: session.reportEvent,
  };
}

export type ShellState = ReturnType<typeof createShellState>;
