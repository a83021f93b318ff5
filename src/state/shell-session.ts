import { batch, signal } from '@preact/signals-react';
import type { FeatureFlags, Preferences } from '../../contract/user';
import type { SessionState, WorkerEvent } from '../../contract/worker-api';
import type { WorkspaceClient } from '../workspace-client';

export type SessionDeps = {
  client: WorkspaceClient;
  /** True while this tab shows a sign-in, sign-up or password screen. */
  isOnAuthPath: () => boolean;
  /** This tab signed out: go to the variant's sign-out route. */
  goToSignedOutRoute: () => void;
  /** Whether an ad blocker hides bait elements (sent with the analytics report). */
  adblockerInstalled?: () => boolean;
};

/**
 * The session as this tab knows it, the sign-in-required modal (000 §2 "Generic screens"), and
 * the signed-in account's flags and preferences, read once per session into `account`.
 */
export function createSession(
  deps: SessionDeps,
  account: {
    setFlags: (flags: FeatureFlags) => void;
    setPreferences: (preferences: Preferences) => void;
  },
) {
  const { client } = deps;
  const $session = signal<SessionState | null>(null);
  const $signInRequired = signal(false);
  let accountLoad: Promise<void> | null = null;
  /** Set while this tab signs out, so its own logout event is never mistaken for another tab's. */
  let signingOut = false;
  /**
   * This tab signed out and has not signed in since: a later logout (a request that was in
   * flight answered 401, 'session-lost') is old news here, not a reason for the modal.
   */
  let signedOutHere = false;

  const setSession = (session: SessionState) => {
    const wasSignedIn = $session.value?.status === 'signed-in';
    $session.value = session;
    // A new account's flags and preferences must be read afresh.
    if (session.status === 'signed-out' || !wasSignedIn) accountLoad = null;
  };

  /** The analytics body for `eventName`, as the signed-in user; null signed out. */
  const analyticsBody = (eventName: string) => {
    const session = $session.peek();
    if (session?.status !== 'signed-in') return null;
    const { user } = session;
    return {
      adblocker_installed: deps.adblockerInstalled?.() ?? false,
      mp_info: { event_name: eventName, distinct_id: user.id, email: user.email, name: user.name },
      mp_error: null,
    };
  };

  /** The analytics report (000 §3, §7); the worker sends it once per session however often asked. */
  const reportSession = () => {
    const body = analyticsBody('session_start');
    if (body) void client.call('analytics.report', body).catch(() => {});
  };

  /** An analytics event the spec counts (a click), sent every time, best effort. */
  const reportEvent = (eventName: string) => {
    const body = analyticsBody(eventName);
    if (body) void client.call('analytics.event', body).catch(() => {});
  };

  /** Flags and preferences of the signed-in account, read once per session. */
  const loadAccount = () => {
    accountLoad ??= Promise.all([
      client.call('flags.get', {}),
      client.call('preferences.get', {}),
    ]).then(
      ([flags, preferences]) => {
        batch(() => {
          account.setFlags(flags);
          account.setPreferences(preferences);
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

  /** The worker's 'session' event. */
  const onSession = (session: SessionState) => {
    setSession(session);
    if (session.status === 'signed-in') signedOutHere = false;
    // Signed in again (in another tab): the session is back, so the sign-in-required modal
    // has nothing left to ask. Its account may differ: read flags and preferences afresh.
    if (session.status === 'signed-in' && $signInRequired.peek()) {
      $signInRequired.value = false;
      loadAccount().catch(() => {});
    }
  };

  /** The worker's 'logout' event: this tab's own sign-out, or another tab's (the modal). */
  const onLogout = (event: Extract<WorkerEvent, { type: 'logout' }>) => {
    setSession({ status: 'signed-out' });
    if (event.reason === 'signed-out' && (event.origin_tab === client.tabId || signingOut)) {
      deps.goToSignedOutRoute();
    } else if (!deps.isOnAuthPath() && !signedOutHere) {
      $signInRequired.value = true;
    }
  };

  /** Sign out here: the worker tells every other tab, which shows the sign-in-required modal. */
  const signOut = async () => {
    signingOut = true;
    signedOutHere = true;
    try {
      await client.call('auth.signOut', {});
      setSession({ status: 'signed-out' });
      deps.goToSignedOutRoute();
    } catch (error) {
      // Still signed in: a later logout is news again.
      signedOutHere = false;
      throw error;
    } finally {
      signingOut = false;
    }
  };

  return {
    $session,
    $signInRequired,
    setSession,
    loadAccount,
    onSession,
    onLogout,
    signOut,
    reportEvent,
  };
}
