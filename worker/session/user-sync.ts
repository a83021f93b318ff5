import type { User } from '../../contract/auth';
import type { WorkerEvent } from '../../contract/worker-api';
import type { ApiClient } from '../api-client';
import type { AuthState } from './auth-state';
import type { SessionStore } from './store';
import type { StoredSession } from './types';

/** The signed-in user kept as the server knows them (GET /auth/session, profile updates). */
export function createUserSync(deps: {
  auth: AuthState;
  store: SessionStore;
  client: ApiClient;
  broadcast: (event: WorkerEvent, exceptTab?: string | null) => void;
}) {
  const { auth, store } = deps;

  /** The user as the server now knows them, stored in the session `asked` and told to every tab. */
  const adoptUser = async (asked: StoredSession, user: User) => {
    if (!auth.isCurrent(asked.session_id)) return;
    if (JSON.stringify(user) === JSON.stringify(auth.current()?.user)) return;
    const saved = await store.patch(asked.session_id, (s) => ({ ...s, user }));
    if (saved && auth.isCurrent(asked.session_id)) {
      auth.set(saved);
      deps.broadcast({ type: 'session', session: auth.state() });
    }
  };

  /** GET /auth/session: the user as the server knows them now. */
  const askServer = async () => {
    const asked = auth.current();
    if (!asked) return auth.state();
    try {
      const answer = await deps.client.call('session', { background: true });
      await adoptUser(asked, answer.user);
    } catch {
      // A 401 has already ended the session (unauthorized); offline keeps it as it is.
    }
    return auth.state();
  };

  return { adoptUser, askServer };
}
