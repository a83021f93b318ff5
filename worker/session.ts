import type {
  ForgotPasswordBody,
  ResetPasswordBody,
  Session as ServerSession,
  SignInBody,
  SignUpBody,
  User,
} from '../contract/auth';
import type { Ok } from '../contract/common';
import type { SessionState, Variant, WorkerEvent } from '../contract/worker-api';
import { ApiError, messageOf, type ApiClient } from './api-client';
import type { BroadcastChannelLike, Clock, LockManagerLike } from './deps';
import type { Mirror, MirrorTx, StoreName, WriteGuard } from './mirror';

/** The session as the mirror keeps it (kv 'session'), so a new worker instance resumes it. */
export type StoredSession = {
  id_token: string;
  refresh_token: string;
  /** Clock time the id token expires. */
  expires_at: number;
  user: User;
  /** One per sign-in: the analytics report goes once per session. */
  session_id: string;
  analytics_sent?: boolean;
  /**
   * The idempotency key of every refresh of this refresh token until one succeeds: when the
   * server rotated the token but its answer was lost, the next refresh gets the first answer
   * replayed instead of tripping reuse detection (which revokes the sign-in).
   */
  refresh_key?: string;
};

/**
 * Whose work a write of server data is. The answer of a request made for one session lands
 * in the mirror only while that session is still the stored one (`guard`, checked in the
 * write's own transaction, so also against other worker instances over the same IndexedDB).
 */
export type Owner = { user_id: string; session_id: string; guard: WriteGuard };

/**
 * The user's data in the mirror, wiped on sign-out and on sign-in of another user: these
 * stores, and every kv record but the session's own (session, owner, redirect, kept logs).
 */
export type UserData = { stores: StoreName[] };

/** What worker instances tell each other on `${product}-session` (the dedicated-worker fallback). */
type ChannelMessage =
  | {
      kind: 'logout';
      from: string;
      reason: 'signed-out' | 'session-lost';
      origin_tab: string | null;
      /** The session that ended (null: no token at all). */
      session_id: string | null;
    }
  | { kind: 'session'; from: string }
  | { kind: 'reload'; from: string; origin_tab: string | null };

export type SessionHooks = {
  /**
   * A user signed in here (`here`), or another worker instance's sign-in was adopted: the
   * instance that signed in does the network work.
   */
  signedIn(user: User, here: boolean): Promise<void> | void;
  /** Anything that may change whether the auth poll should run. */
  changed(): void;
};

export type SessionManager = {
  ready: Promise<void>;
  state(): SessionState;
  user(): User | null;
  token(): string | null;
  /** The current session as the owner of background work, or null when signed out. */
  owner(): Owner | null;
  expired(token: string): boolean;
  refresh(stale: string): Promise<string>;
  /** An authenticated call (`label`) found no token. */
  missing(label?: string): void;
  unauthorized(token: string): void;
  /** A log with no token to go with: kept in the mirror (the last few) until a sign-in. */
  keepLog(logData: Record<string, unknown>): void;
  /** Sends the kept logs with the current token. */
  flushLogs(): Promise<void>;
  signIn(body: SignInBody, originTab: string | null, variant: Variant): Promise<SessionState>;
  signUp(body: SignUpBody, originTab: string | null, variant: Variant): Promise<SessionState>;
  signOut(originTab: string | null, variant: Variant): Promise<void>;
  forgotPassword(body: ForgotPasswordBody, variant: Variant): Promise<Ok>;
  resetPassword(body: ResetPasswordBody, variant: Variant): Promise<Ok>;
  /** GET /auth/session (the auth poll and the route check); concurrent checks share one call. */
  check(): Promise<SessionState>;
  oauthComplete(originTab: string | null): void;
  storeRedirect(path: string): Promise<void>;
  takeRedirect(): Promise<string | null>;
  /** True the first time in this session: the analytics report goes once per session. */
  claimAnalytics(): Promise<boolean>;
  close(): void;
};

const SESSION_KEY = 'session';
const REDIRECT_KEY = 'redirect';
/** The user whose data the mirror holds; outlives sign-out, compared on the next sign-in. */
const OWNER_KEY = 'owner';
/** Logs that had no token to go with (000 §8: log to the backend), oldest first. */
const KEPT_LOGS_KEY = 'logs.kept';
const MAX_KEPT_LOGS = 20;
/** How many id tokens' users the worker remembers, to tell a stale token's user. */
const MAX_REMEMBERED_TOKENS = 32;
/** kv records of the session itself: a wipe of the user's data leaves them. */
const SESSION_KV = new Set([SESSION_KEY, REDIRECT_KEY, OWNER_KEY, KEPT_LOGS_KEY]);
export const REFRESH_LOCK = 'session-refresh';

/** The request was made for a session that is no longer the current one. */
const sessionChanged = (message: string) => new ApiError(401, 'session_changed', message);

export function createSessionManager(deps: {
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
}): SessionManager {
  const instance = deps.randomId();
  let current: StoredSession | null = null;
  let refreshing: { sessionId: string; done: Promise<string> } | null = null;
  let checking: Promise<SessionState> | null = null;
  let signIns = 0;
  /** The user of each id token this worker used: a retry after a refresh stays that user's. */
  const tokenUsers = new Map<string, string>();

  const setCurrent = (session: StoredSession | null) => {
    current = session;
    if (!session) return;
    tokenUsers.delete(session.id_token);
    tokenUsers.set(session.id_token, session.user.id);
    for (const token of tokenUsers.keys()) {
      if (tokenUsers.size <= MAX_REMEMBERED_TOKENS) break;
      tokenUsers.delete(token);
    }
  };
  const isCurrent = (sessionId: string) => current?.session_id === sessionId;

  const load = async () => (await deps.mirror).get<StoredSession>('kv', SESSION_KEY);
  const guardFor = (sessionId: string): WriteGuard => ({
    key: SESSION_KEY,
    holds: (stored) => (stored as StoredSession | undefined)?.session_id === sessionId,
  });

  /** Changes the stored session if it is still `sessionId`; null when another took its place. */
  const patch = async (sessionId: string, change: (stored: StoredSession) => StoredSession) => {
    const out: { saved: StoredSession | null } = { saved: null };
    await (
      await deps.mirror
    ).update<StoredSession>('kv', SESSION_KEY, (stored) => {
      if (stored?.session_id !== sessionId) return stored;
      out.saved = change(stored);
      return out.saved;
    });
    return out.saved;
  };

  const userStores = (): StoreName[] => ['kv', ...deps.userData.stores];
  const wipe = async (tx: MirrorTx) => {
    for (const store of deps.userData.stores) tx.clear(store);
    for (const key of await tx.keys('kv')) {
      if (!SESSION_KV.has(key)) tx.put({ store: 'kv', key });
    }
  };

  const ready = load().then((stored) => {
    setCurrent(stored ?? null);
    deps.hooks.changed();
  });

  const state = (): SessionState =>
    current ? { status: 'signed-in', user: current.user } : { status: 'signed-out' };

  const post = (message: ChannelMessage) => {
    try {
      deps.channel.postMessage(message);
    } catch {
      // A closed channel means this worker is closing; nobody is left to tell.
    }
  };

  const fromServer = (s: ServerSession, previous: StoredSession | null): StoredSession => ({
    id_token: s.id_token,
    refresh_token: s.refresh_token,
    expires_at: deps.clock.now() + s.expires_in * 1000,
    user: s.user,
    session_id: previous?.session_id ?? deps.randomId(),
    analytics_sent: previous?.analytics_sent,
  });

  const adopt = async (s: ServerSession) => {
    const next = fromServer(s, null);
    const turn = ++signIns;
    // One transaction: an answer for an earlier session is written before it (and wiped when
    // the user differs) or refused after it by the guard, never mixed into this user's data.
    await (
      await deps.mirror
    ).transact(userStores(), async (tx) => {
      if ((await tx.get<string>('kv', OWNER_KEY)) !== next.user.id) await wipe(tx);
      tx.put({ store: 'kv', key: OWNER_KEY, value: next.user.id });
      tx.put({ store: 'kv', key: SESSION_KEY, value: next });
    });
    // A later sign-in here was stored after this one: it is the session now.
    if (turn !== signIns) return state();
    setCurrent(next);
    await deps.hooks.signedIn(next.user, true);
    deps.broadcast({ type: 'session', session: state() });
    post({ kind: 'session', from: instance });
    deps.hooks.changed();
    return state();
  };

  /**
   * The session ended here: forget it and the user's data, then tell every tab (and every
   * other worker instance). `only`: end that session, if it is still the stored one (without
   * it, whatever is stored ends). Answers the stored session it ended, if any.
   */
  const end = async (
    reason: 'signed-out' | 'session-lost',
    originTab: string | null,
    only?: StoredSession,
  ) => {
    if (!only || isCurrent(only.session_id)) setCurrent(null);
    const outcome = await (
      await deps.mirror
    ).transact(userStores(), async (tx) => {
      const stored = await tx.get<StoredSession>('kv', SESSION_KEY);
      // A later sign-in took its place (here or in another worker instance, whose 'session'
      // message brings it here): that session is not this one to end.
      if (only && stored && stored.session_id !== only.session_id) return null;
      tx.put({ store: 'kv', key: SESSION_KEY });
      await wipe(tx);
      return { stored: stored ?? null };
    });
    if (!outcome) return null;
    deps.hooks.changed();
    deps.broadcast({ type: 'logout', reason, origin_tab: originTab });
    const sessionId = outcome.stored?.session_id ?? only?.session_id ?? null;
    post({ kind: 'logout', from: instance, reason, origin_tab: originTab, session_id: sessionId });
    return outcome.stored;
  };

  const doRefresh = (stale: StoredSession) =>
    deps.locks.request(REFRESH_LOCK, {}, async () => {
      const stored = await load();
      if (!stored || stored.session_id !== stale.session_id) {
        if (!stored && isCurrent(stale.session_id)) await end('session-lost', null, stale);
        throw sessionChanged('The session ended in another tab');
      }
      if (stored.id_token !== stale.id_token) {
        // Another worker instance over the same IndexedDB refreshed (and rotated the refresh
        // token) already: take its pair instead of spending a stale refresh token.
        if (isCurrent(stale.session_id)) setCurrent(stored);
        return stored.id_token;
      }
      let key = stored.refresh_key;
      if (!key) {
        const keyed = await patch(stale.session_id, (s) => ({
          ...s,
          refresh_key: deps.randomId(),
        }));
        if (!keyed?.refresh_key) throw sessionChanged('The session ended in another tab');
        key = keyed.refresh_key;
      }
      let fresh: ServerSession;
      try {
        fresh = await deps.client.call('refresh', {
          body: { refresh_token: stored.refresh_token },
          idempotencyKey: key,
          background: true,
        });
      } catch (error) {
        // Only the server saying no (4xx) ends the session; offline or a server error (a
        // deploy, a restart) keeps it, and only this call fails.
        const rejected = error instanceof ApiError && error.status >= 400 && error.status < 500;
        if (rejected && isCurrent(stale.session_id)) {
          // 000 §8: log, then sign out. The stale token still identifies the caller there.
          const logData = { event: 'token_refresh_failed', message: messageOf(error) };
          await deps.client.log(logData, stale.id_token);
          await end('session-lost', null, stale);
        }
        throw error;
      }
      // Saved only if the session is still the one refreshed (not signed out meanwhile).
      const saved = await patch(stale.session_id, (s) => fromServer(fresh, s));
      if (!saved) {
        // The new pair belongs to nobody now: revoke it, best effort.
        void deps.client
          .call('signOut', {
            body: { refresh_token: fresh.refresh_token },
            token: fresh.id_token,
            background: true,
          })
          .catch(() => {});
        throw sessionChanged('The session ended while its token was being refreshed');
      }
      if (isCurrent(stale.session_id)) setCurrent(saved);
      return saved.id_token;
    });

  const keepLog = (logData: Record<string, unknown>) => {
    const entry = { ...logData, logged_at: new Date(deps.clock.now()).toISOString() };
    void deps.mirror
      .then((db) =>
        db.update<Record<string, unknown>[]>('kv', KEPT_LOGS_KEY, (kept = []) =>
          [...kept, entry].slice(-MAX_KEPT_LOGS),
        ),
      )
      .catch(() => {
        // Best effort, like the log itself.
      });
  };

  deps.channel.addEventListener('message', (event) => {
    const message = event.data as ChannelMessage;
    if (!message || message.from === instance) return;
    if (message.kind === 'logout') {
      // A session this worker has already left behind (a newer sign-in) stays as it is.
      if (message.session_id && current && !isCurrent(message.session_id)) return;
      setCurrent(null);
      deps.hooks.changed();
      deps.broadcast({ type: 'logout', reason: message.reason, origin_tab: message.origin_tab });
    } else if (message.kind === 'session') {
      void load().then(async (stored) => {
        setCurrent(stored ?? null);
        if (current) await deps.hooks.signedIn(current.user, false);
        deps.broadcast({ type: 'session', session: state() });
        deps.hooks.changed();
      });
    } else if (message.kind === 'reload') {
      deps.broadcast({ type: 'reload', reason: 'oauth' }, message.origin_tab);
    }
  });

  return {
    ready,
    state,
    user: () => current?.user ?? null,
    token: () => current?.id_token ?? null,
    owner: () =>
      current && {
        user_id: current.user.id,
        session_id: current.session_id,
        guard: guardFor(current.session_id),
      },
    expired: (token) => current?.id_token === token && deps.clock.now() >= current.expires_at,
    refresh(stale) {
      if (!current) return Promise.reject(new ApiError(401, 'no_token', 'Not signed in'));
      if (current.id_token !== stale) {
        // Refreshed meanwhile: the fresh token may retry a request of the same user only.
        if (tokenUsers.get(stale) === current.user.id) return Promise.resolve(current.id_token);
        return Promise.reject(
          sessionChanged('The request was made for another account; it was not sent again'),
        );
      }
      const sessionId = current.session_id;
      if (refreshing?.sessionId !== sessionId) {
        const done: Promise<string> = doRefresh(current).finally(() => {
          if (refreshing?.done === done) refreshing = null;
        });
        refreshing = { sessionId, done };
      }
      return refreshing.done;
    },
    missing(label) {
      // No token (000 §8): every tab shows the sign-in-required modal, and the backend hears
      // of it once someone signs in again.
      deps.broadcast({ type: 'logout', reason: 'session-lost', origin_tab: null });
      post({
        kind: 'logout',
        from: instance,
        reason: 'session-lost',
        origin_tab: null,
        session_id: null,
      });
      keepLog({ event: 'no_token', ...(label ? { call: label } : {}) });
    },
    unauthorized(token) {
      // A 401 for a token other than the current one is a stale answer, not a lost session.
      if (current && current.id_token === token) void end('session-lost', null, current);
    },
    keepLog,
    async flushLogs() {
      const token = current?.id_token;
      if (!token) return;
      const db = await deps.mirror;
      const kept = await db.update<Record<string, unknown>[]>('kv', KEPT_LOGS_KEY, () => undefined);
      for (const logData of kept ?? []) await deps.client.log(logData, token);
    },
    async signIn(body, _originTab, variant) {
      return adopt(await deps.client.call('signIn', { body, variant }));
    },
    async signUp(body, _originTab, variant) {
      return adopt(await deps.client.call('signUp', { body, variant }));
    },
    async signOut(originTab, variant) {
      // No refresh here: the session ends locally first, then the server is told best effort
      // with the token it had (a 401 or 403 for an expired or revoked one is fine).
      const known = current;
      const ended = (await end('signed-out', originTab, known ?? undefined)) ?? known;
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
    check() {
      checking ??= (async () => {
        const asked = current;
        if (!asked) return state();
        try {
          const answer = await deps.client.call('session', { background: true });
          const changed = JSON.stringify(answer.user) !== JSON.stringify(current?.user);
          if (isCurrent(asked.session_id) && changed) {
            const saved = await patch(asked.session_id, (s) => ({ ...s, user: answer.user }));
            if (saved && isCurrent(asked.session_id)) {
              setCurrent(saved);
              deps.broadcast({ type: 'session', session: state() });
            }
          }
        } catch {
          // A 401 has already ended the session (unauthorized); offline keeps it as it is.
        }
        return state();
      })().finally(() => {
        checking = null;
      });
      return checking;
    },
    oauthComplete(originTab) {
      deps.broadcast({ type: 'reload', reason: 'oauth' }, originTab);
      post({ kind: 'reload', from: instance, origin_tab: originTab });
    },
    async storeRedirect(path) {
      await (await deps.mirror).write([{ store: 'kv', key: REDIRECT_KEY, value: path }]);
    },
    async takeRedirect() {
      const db = await deps.mirror;
      return (await db.update<string>('kv', REDIRECT_KEY, () => undefined)) ?? null;
    },
    async claimAnalytics() {
      if (!current || current.analytics_sent) return false;
      const sessionId = current.session_id;
      const claim = { first: false };
      const saved = await patch(sessionId, (s) => {
        claim.first = !s.analytics_sent;
        return { ...s, analytics_sent: true };
      });
      if (saved && isCurrent(sessionId)) setCurrent(saved);
      return claim.first;
    },
    close() {
      deps.channel.close();
    },
  };
}
