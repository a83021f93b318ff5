import type { Session as ServerSession } from '../../contract/auth';
import type { SessionState } from '../../contract/auth';
import type { WorkerEvent } from '../../contract/worker-api';
import type { Clock } from '../deps';
import type { AuthState } from './auth-state';
import type { SessionChannel } from './channel';
import type { SessionStore } from './store';
import type { SessionHooks, StoredSession } from './types';

export type LogoutReason = 'signed-out' | 'session-lost';

export type SessionLifecycle = {
  /** The session to store for the server's answer; `previous` keeps its id and analytics flag. */
  fromServer(s: ServerSession, previous: StoredSession | null): StoredSession;
  /** A sign-in (or sign-up) answered here: store it, then tell every tab and instance. */
  adopt(s: ServerSession): Promise<SessionState>;
  /**
   * The session ended here: forget it and the user's data, then tell every tab (and every
   * other worker instance). `only`: end that session, if it is still the stored one (without
   * it, whatever is stored ends). Answers the stored session it ended, if any.
   */
  end(
    reason: LogoutReason,
    originTab: string | null,
    only?: StoredSession,
  ): Promise<StoredSession | null>;
};

/** How a session starts and ends: the stored record, the memory, the tabs and the channel. */
export function createSessionLifecycle(deps: {
  auth: AuthState;
  store: SessionStore;
  channel: SessionChannel;
  clock: Clock;
  randomId: () => string;
  broadcast: (event: WorkerEvent, exceptTab?: string | null) => void;
  hooks: SessionHooks;
}): SessionLifecycle {
  const { auth } = deps;
  let signIns = 0;

  const fromServer = (s: ServerSession, previous: StoredSession | null): StoredSession => ({
    id_token: s.id_token,
    refresh_token: s.refresh_token,
    expires_at: deps.clock.now() + s.expires_in * 1000,
    user: s.user,
    session_id: previous?.session_id ?? deps.randomId(),
    analytics_sent: previous?.analytics_sent,
  });

  return {
    fromServer,
    async adopt(s) {
      const next = fromServer(s, null);
      const turn = ++signIns;
      await deps.store.saveSignIn(next);
      // A later sign-in here was stored after this one: it is the session now.
      if (turn !== signIns) return auth.state();
      auth.set(next);
      await deps.hooks.signedIn(next.user, true);
      deps.broadcast({ type: 'session', session: auth.state() });
      deps.channel.post({ kind: 'session' });
      deps.hooks.changed();
      return auth.state();
    },
    async end(reason, originTab, only) {
      if (!only || auth.isCurrent(only.session_id)) auth.set(null);
      // A later sign-in took the place of `only` (here, or in another worker instance whose
      // 'session' message brings it here): that session is not this one to end.
      const outcome = await deps.store.clear(only?.session_id);
      if (!outcome) return null;
      deps.hooks.changed();
      deps.broadcast({ type: 'logout', reason, origin_tab: originTab });
      const sessionId = outcome.stored?.session_id ?? only?.session_id ?? null;
      deps.channel.post({ kind: 'logout', reason, origin_tab: originTab, session_id: sessionId });
      return outcome.stored;
    },
  };
}
