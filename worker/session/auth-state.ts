import type { SessionState } from '../../contract/auth';
import type { Clock } from '../deps';
import type { Owner, StoredSession } from './types';

/** How many id tokens' users the worker remembers, to tell a stale token's user. */
const MAX_REMEMBERED_TOKENS = 32;

export type AuthState = {
  current(): StoredSession | null;
  set(session: StoredSession | null): void;
  isCurrent(sessionId: string): boolean;
  state(): SessionState;
  owner(): Owner | null;
  /** Whether `token` is the current one and past its lifetime by the worker's clock. */
  expired(token: string): boolean;
  /** Whether `token` (current or older) was the current user's: a retry may use theirs. */
  sameUser(token: string): boolean;
};

/**
 * The session this worker instance holds in memory (the mirror holds the stored one), and the
 * user of each id token it used, so a request retried after a refresh stays its user's.
 */
export function createAuthState(deps: {
  clock: Clock;
  guardFor: (sessionId: string) => Owner['guard'];
}): AuthState {
  let current: StoredSession | null = null;
  const tokenUsers = new Map<string, string>();

  return {
    current: () => current,
    set(session) {
      current = session;
      if (!session) return;
      tokenUsers.delete(session.id_token);
      tokenUsers.set(session.id_token, session.user.id);
      for (const token of tokenUsers.keys()) {
        if (tokenUsers.size <= MAX_REMEMBERED_TOKENS) break;
        tokenUsers.delete(token);
      }
    },
    isCurrent: (sessionId) => current?.session_id === sessionId,
    state: () => (current ? { status: 'signed-in', user: current.user } : { status: 'signed-out' }),
    owner: () =>
      current && {
        user_id: current.user.id,
        session_id: current.session_id,
        guard: deps.guardFor(current.session_id),
      },
    expired: (token) => current?.id_token === token && deps.clock.now() >= current.expires_at,
    sameUser: (token) => current !== null && tokenUsers.get(token) === current.user.id,
  };
}
