import type { AuthState } from './auth-state';
import type { SessionStore } from './store';

/**
 * The analytics report goes once per session (000 §7): the first claim of a session wins,
 * across worker instances too (the flag is set in the stored session, in one transaction).
 */
export function createAnalyticsClaim(deps: {
  auth: AuthState;
  store: Pick<SessionStore, 'patch'>;
}): () => Promise<boolean> {
  return async () => {
    const current = deps.auth.current();
    if (!current || current.analytics_sent) return false;
    const sessionId = current.session_id;
    const claim = { first: false };
    const saved = await deps.store.patch(sessionId, (s) => {
      claim.first = !s.analytics_sent;
      return { ...s, analytics_sent: true };
    });
    if (saved && deps.auth.isCurrent(sessionId)) deps.auth.set(saved);
    return claim.first;
  };
}
