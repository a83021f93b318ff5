import type { Session as ServerSession } from '../../contract/auth';
import { ApiError, messageOf, type ApiClient } from '../api-client';
import { sessionChanged } from '../api-errors';
import type { LockManagerLike } from '../deps';
import type { AuthState } from './auth-state';
import type { SessionLifecycle } from './lifecycle';
import type { SessionStore } from './store';
import type { StoredSession } from './types';

export const REFRESH_LOCK = 'session-refresh';

/**
 * Token refresh: one at a time per browser (the Web Lock 'session-refresh'), one at a time per
 * session in this instance (concurrent callers share it), one idempotency key per refresh
 * token until a refresh succeeds. A failed refresh is logged here, once, however many calls
 * waited on it; only the server saying no (4xx) ends the session.
 */
export function createRefresher(deps: {
  auth: AuthState;
  store: SessionStore;
  lifecycle: Pick<SessionLifecycle, 'fromServer' | 'end'>;
  locks: LockManagerLike;
  client: Pick<ApiClient, 'call' | 'log'>;
  randomId: () => string;
}): (stale: string, label?: string) => Promise<string> {
  const { auth, store } = deps;
  let refreshing: { sessionId: string; done: Promise<string> } | null = null;

  /** The refresh key of the stored session, made (and stored) on its first refresh. */
  const keyOf = async (stored: StoredSession) => {
    if (stored.refresh_key) return stored.refresh_key;
    const keyed = await store.patch(stored.session_id, (s) => ({
      ...s,
      refresh_key: deps.randomId(),
    }));
    if (!keyed?.refresh_key)
      throw sessionChanged('Token refresh', 'the session ended in another tab');
    return keyed.refresh_key;
  };

  const failed = async (stale: StoredSession, error: unknown, label?: string) => {
    // 000 §8: log, then sign out. The stale token still identifies the caller there.
    const logData = { event: 'token_refresh_failed', message: messageOf(error) };
    await deps.client.log(label ? { ...logData, call: label } : logData, stale.id_token);
    // Offline or a server error (a deploy, a restart) keeps the session: only this call fails.
    const rejected = error instanceof ApiError && error.status >= 400 && error.status < 500;
    if (rejected && auth.isCurrent(stale.session_id)) {
      await deps.lifecycle.end('session-lost', null, stale);
    }
  };

  const run = (stale: StoredSession, label?: string) =>
    deps.locks.request(REFRESH_LOCK, {}, async () => {
      const stored = await store.load();
      if (!stored || stored.session_id !== stale.session_id) {
        if (!stored && auth.isCurrent(stale.session_id)) {
          await deps.lifecycle.end('session-lost', null, stale);
        }
        throw sessionChanged('Token refresh', 'the session ended in another tab');
      }
      if (stored.id_token !== stale.id_token) {
        // Another worker instance over the same IndexedDB refreshed (and rotated the refresh
        // token) already: take its pair instead of spending a stale refresh token.
        if (auth.isCurrent(stale.session_id)) auth.set(stored);
        return stored.id_token;
      }
      const key = await keyOf(stored);
      let fresh: ServerSession;
      try {
        fresh = await deps.client.call('refresh', {
          body: { refresh_token: stored.refresh_token },
          idempotencyKey: key,
          background: true,
        });
      } catch (error) {
        await failed(stale, error, label);
        throw error;
      }
      // Saved only if the session is still the one refreshed (not signed out meanwhile).
      const saved = await store.patch(stale.session_id, (s) => deps.lifecycle.fromServer(fresh, s));
      if (!saved) {
        // The new pair belongs to nobody now: revoke it, best effort.
        void deps.client
          .call('signOut', {
            body: { refresh_token: fresh.refresh_token },
            token: fresh.id_token,
            background: true,
          })
          .catch(() => {});
        throw sessionChanged('Token refresh', 'the session ended while the token was refreshed');
      }
      if (auth.isCurrent(stale.session_id)) auth.set(saved);
      return saved.id_token;
    });

  return (stale, label) => {
    const current = auth.current();
    if (!current) return Promise.reject(new ApiError(401, 'no_token', 'Not signed in'));
    if (current.id_token !== stale) {
      // Refreshed meanwhile: the fresh token may retry a request of the same user only.
      if (auth.sameUser(stale)) return Promise.resolve(current.id_token);
      return Promise.reject(
        sessionChanged(label ?? 'The request', 'it was made for another account; not sent again'),
      );
    }
    if (refreshing?.sessionId !== current.session_id) {
      const done: Promise<string> = run(current, label).finally(() => {
        if (refreshing?.done === done) refreshing = null;
      });
      refreshing = { sessionId: current.session_id, done };
    }
    return refreshing.done;
  };
}
