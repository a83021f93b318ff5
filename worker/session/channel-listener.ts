import type { WorkerEvent } from '../../contract/worker-api';
import type { AuthState } from './auth-state';
import type { ChannelMessage } from './channel';
import type { SessionStore } from './store';
import type { SessionHooks } from './types';

/** What this worker does when another worker instance signs in, signs out or completes OAuth. */
export function createChannelListener(deps: {
  auth: AuthState;
  store: SessionStore;
  broadcast: (event: WorkerEvent, exceptTab?: string | null) => void;
  hooks: SessionHooks;
}) {
  const { auth, store } = deps;
  return (message: ChannelMessage) => {
    if (message.kind === 'logout') {
      // A session this worker has already left behind (a newer sign-in) stays as it is.
      if (message.session_id && auth.current() && !auth.isCurrent(message.session_id)) return;
      auth.set(null);
      deps.hooks.changed();
      deps.broadcast({ type: 'logout', reason: message.reason, origin_tab: message.origin_tab });
    } else if (message.kind === 'session') {
      void store.load().then(async (stored) => {
        auth.set(stored ?? null);
        const user = auth.current()?.user;
        if (user) await deps.hooks.signedIn(user, false);
        deps.broadcast({ type: 'session', session: auth.state() });
        deps.hooks.changed();
      });
    } else {
      deps.broadcast({ type: 'reload', reason: 'oauth' }, message.origin_tab);
    }
  };
}
