import type { Mirror, MirrorTx, StoreName, WriteGuard } from '../mirror';
import type { StoredSession, UserData } from './types';

export const SESSION_KEY = 'session';
export const REDIRECT_KEY = 'redirect';
/** The user whose data the mirror holds; outlives sign-out, compared on the next sign-in. */
export const OWNER_KEY = 'owner';
/** Logs that had no token to go with (000 §8: log to the backend), oldest first. */
export const KEPT_LOGS_KEY = 'logs.kept';
/** kv records of the session itself: a wipe of the user's data leaves them. */
const SESSION_KV = new Set([SESSION_KEY, REDIRECT_KEY, OWNER_KEY, KEPT_LOGS_KEY]);

export type SessionStore = {
  load(): Promise<StoredSession | undefined>;
  /** Changes the stored session if it is still `sessionId`; null when another took its place. */
  patch(
    sessionId: string,
    change: (stored: StoredSession) => StoredSession,
  ): Promise<StoredSession | null>;
  /** Holds while `sessionId` is the stored session (checked inside a write's transaction). */
  guardFor(sessionId: string): WriteGuard;
  /**
   * Stores `next` as the session, in one transaction with wiping the user's data when the
   * mirror held another user's: an answer for an earlier session is written before it (and
   * wiped) or refused after it by the guard, never mixed into this user's data.
   */
  saveSignIn(next: StoredSession): Promise<void>;
  /**
   * Deletes the stored session and wipes the user's data, in one transaction. `only`: unless
   * a later sign-in (here or in another worker instance) took the place of that session, in
   * which case nothing is done and null is answered. Answers the session it deleted.
   */
  clear(only?: string): Promise<{ stored: StoredSession | null } | null>;
};

/** The session's records in the mirror's 'kv' store, and the wipe of the user's data. */
export function createSessionStore(deps: {
  mirror: Promise<Mirror>;
  userData: UserData;
}): SessionStore {
  const userStores = (): StoreName[] => ['kv', ...deps.userData.stores];
  const wipe = async (tx: MirrorTx) => {
    for (const store of deps.userData.stores) tx.clear(store);
    for (const key of await tx.keys('kv')) {
      if (!SESSION_KV.has(key)) tx.put({ store: 'kv', key });
    }
  };

  return {
    load: async () => (await deps.mirror).get<StoredSession>('kv', SESSION_KEY),
    async patch(sessionId, change) {
      const out: { saved: StoredSession | null } = { saved: null };
      await (
        await deps.mirror
      ).update<StoredSession>('kv', SESSION_KEY, (stored) => {
        if (stored?.session_id !== sessionId) return stored;
        out.saved = change(stored);
        return out.saved;
      });
      return out.saved;
    },
    guardFor: (sessionId) => ({
      key: SESSION_KEY,
      holds: (stored) => (stored as StoredSession | undefined)?.session_id === sessionId,
    }),
    async saveSignIn(next) {
      await (
        await deps.mirror
      ).transact(userStores(), async (tx) => {
        if ((await tx.get<string>('kv', OWNER_KEY)) !== next.user.id) await wipe(tx);
        tx.put({ store: 'kv', key: OWNER_KEY, value: next.user.id });
        tx.put({ store: 'kv', key: SESSION_KEY, value: next });
      });
    },
    async clear(only) {
      return (await deps.mirror).transact(userStores(), async (tx) => {
        const stored = await tx.get<StoredSession>('kv', SESSION_KEY);
        if (only !== undefined && stored && stored.session_id !== only) return null;
        tx.put({ store: 'kv', key: SESSION_KEY });
        await wipe(tx);
        return { stored: stored ?? null };
      });
    },
  };
}
