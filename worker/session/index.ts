import type { SessionState } from '../../contract/auth';
import type { WorkerEvent } from '../../contract/worker-api';
import type { ApiClient } from '../api-client';
import type { BroadcastChannelLike, Clock, LockManagerLike } from '../deps';
import type { Mirror } from '../mirror';
import { createAnalyticsClaim } from './analytics';
import { createAuthState } from './auth-state';
import { createSessionChannel } from './channel';
import { createChannelListener } from './channel-listener';
import { createKeptLogs } from './kept-logs';
import { createSessionLifecycle } from './lifecycle';
import { createStoredRedirect } from './redirect';
import { createRefresher } from './refresh';
import { createSessionStore } from './store';
import { createUserSync } from './user-sync';
import type { SessionHooks, SessionManager, UserData } from './types';

export { REFRESH_LOCK } from './refresh';
export type { Owner, SessionHooks, SessionManager, StoredSession, UserData } from './types';

export type SessionDeps = {
  mirror: Promise<Mirror>;
  client: ApiClient;
  clock: Clock;
  locks: LockManagerLike;
  channel: BroadcastChannelLike;
  randomId: () => string;
  /** To every tab of this worker. */
  broadcast: (event: WorkerEvent, exceptTab?: string | null) => void;
  hooks: SessionHooks;
  userData: UserData;
};

/**
 * The session manager: sign-in/up/out, the auth check and the no-token rule, composed of its
 * parts (each made here in order, from what was made before it): the stored session, the one
 * in memory, the cross-worker channel and what it hears, how a session starts and ends, the
 * refresh, the user as the server knows them, kept logs, the stored redirect and the analytics
 * claim.
 */
export function createSessionManager(deps: SessionDeps): SessionManager {
  const store = createSessionStore({ mirror: deps.mirror, userData: deps.userData });
  const auth = createAuthState({ clock: deps.clock, guardFor: store.guardFor });
  const channel = createSessionChannel({ channel: deps.channel, instance: deps.randomId() });
  const lifecycle = createSessionLifecycle({ ...deps, auth, store, channel });
  const refresh = createRefresher({ ...deps, auth, store, lifecycle });
  const logs = createKeptLogs(deps);
  const redirect = createStoredRedirect(deps);
  const claimAnalytics = createAnalyticsClaim({ auth, store });
  const { adoptUser, askServer } = createUserSync({ ...deps, auth, store });
  let checking: Promise<SessionState> | null = null;

  const ready = store.load().then((stored) => {
    auth.set(stored ?? null);
    deps.hooks.changed();
  });

  channel.listen(createChannelListener({ ...deps, auth, store }));

  return {
    ready,
    state: auth.state,
    user: () => auth.current()?.user ?? null,
    token: () => auth.current()?.id_token ?? null,
    owner: auth.owner,
    expired: auth.expired,
    refresh,
    missing(label) {
      // No token (000 §8): every tab shows the sign-in-required modal, and the backend hears
      // of it once someone signs in again.
      deps.broadcast({ type: 'logout', reason: 'session-lost', origin_tab: null });
      channel.post({ kind: 'logout', reason: 'session-lost', origin_tab: null, session_id: null });
      logs.keep({ event: 'no_token', ...(label ? { call: label } : {}) });
    },
    unauthorized(token) {
      // A 401 for a token other than the current one is a stale answer, not a lost session.
      const current = auth.current();
      if (current && current.id_token === token) void lifecycle.end('session-lost', null, current);
    },
    keepLog: logs.keep,
    async flushLogs() {
      const token = auth.current()?.id_token;
      if (token) await logs.flush(token);
    },
    async signIn(body, _originTab, variant) {
      return lifecycle.adopt(await deps.client.call('signIn', { body, variant }));
    },
    async signUp(body, _originTab, variant) {
      return lifecycle.adopt(await deps.client.call('signUp', { body, variant }));
    },
    async signOut(originTab, variant) {
      // No refresh here: the session ends locally first, then the server is told best effort
      // with the token it had (a 401 or 403 for an expired or revoked one is fine).
      const known = auth.current();
      const ended = (await lifecycle.end('signed-out', originTab, known ?? undefined)) ?? known;
      if (!ended) return;
      try {
        await deps.client.call('signOut', {
          body: { refresh_token: ended.refresh_token },
          token: ended.id_token,
          variant,
          background: true,
        });
      } catch {
        // Signing out locally matters more than telling a server we cannot reach.
      }
    },
    forgotPassword: (body, variant) => deps.client.call('forgotPassword', { body, variant }),
    resetPassword: (body, variant) => deps.client.call('resetPassword', { body, variant }),
    async updateProfile(body, variant) {
      const asked = auth.current();
      if (!asked) return auth.state();
      await adoptUser(asked, await deps.client.call('updateProfile', { body, variant }));
      return auth.state();
    },
    changePassword: (body, variant) => deps.client.call('changePassword', { body, variant }),
    async signOutEverywhere(originTab, variant) {
      const known = auth.current();
      if (!known) return;
      await deps.client.call('signOutEverywhere', { body: {}, variant });
      await lifecycle.end('signed-out', originTab, known);
    },
    check() {
      checking ??= askServer().finally(() => {
        checking = null;
      });
      return checking;
    },
    oauthComplete(originTab) {
      deps.broadcast({ type: 'reload', reason: 'oauth' }, originTab);
      channel.post({ kind: 'reload', origin_tab: originTab });
    },
    storeRedirect: redirect.store,
    takeRedirect: redirect.take,
    claimAnalytics,
    close: channel.close,
  };
}
