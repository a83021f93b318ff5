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
import { ApiError, isNetworkError, messageOf, type ApiClient } from './api-client';
import type { BroadcastChannelLike, Clock, LockManagerLike } from './deps';
import type { Mirror } from './mirror';

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
};

/** What worker instances tell each other on `${product}-session` (the dedicated-worker fallback). */
type ChannelMessage =
  | {
      kind: 'logout';
      from: string;
      reason: 'signed-out' | 'session-lost';
      origin_tab: string | null;
    }
  | { kind: 'session'; from: string }
  | { kind: 'reload'; from: string; origin_tab: string | null };

export type SessionHooks = {
  /**
   * A user signed in here (`here`), or another worker instance's sign-in was adopted: the
   * instance that signed in does the network work, the others only forget a previous user.
   */
  signedIn(user: User, previousUserId: string | null, here: boolean): Promise<void> | void;
  /** The session ended in this worker: forget the user's data. */
  signedOut(): Promise<void> | void;
  /** Anything that may change whether the auth poll should run. */
  changed(): void;
};

export type SessionManager = {
  ready: Promise<void>;
  state(): SessionState;
  user(): User | null;
  token(): string | null;
  expired(token: string): boolean;
  refresh(stale: string): Promise<string>;
  missing(): void;
  unauthorized(token: string): void;
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
export const REFRESH_LOCK = 'session-refresh';

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
}): SessionManager {
  const instance = deps.randomId();
  let current: StoredSession | null = null;
  let refreshing: Promise<string> | null = null;
  let checking: Promise<SessionState> | null = null;

  const load = async () => (await deps.mirror).get<StoredSession>('kv', SESSION_KEY);
  const save = async (session: StoredSession | null) =>
    (await deps.mirror).write([{ store: 'kv', key: SESSION_KEY, value: session ?? undefined }]);

  const ready = load().then((stored) => {
    current = stored ?? null;
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
    const previousUser = current?.user.id ?? null;
    current = fromServer(s, null);
    await save(current);
    await deps.hooks.signedIn(current.user, previousUser, true);
    deps.broadcast({ type: 'session', session: state() });
    post({ kind: 'session', from: instance });
    deps.hooks.changed();
    return state();
  };

  // The session ended here: forget it, then tell every tab (and every other worker instance).
  const end = async (reason: 'signed-out' | 'session-lost', originTab: string | null) => {
    current = null;
    await save(null);
    await deps.hooks.signedOut();
    deps.hooks.changed();
    deps.broadcast({ type: 'logout', reason, origin_tab: originTab });
    post({ kind: 'logout', from: instance, reason, origin_tab: originTab });
  };

  const doRefresh = (stale: StoredSession) =>
    deps.locks.request(REFRESH_LOCK, {}, async () => {
      // Another worker instance over the same IndexedDB may have refreshed (and rotated the
      // refresh token) already: take its pair instead of spending a stale refresh token.
      const stored = await load();
      if (!stored) {
        if (current === stale) await end('session-lost', null);
        throw new ApiError(401, 'unauthorized', 'The session ended in another tab');
      }
      if (stored.id_token !== stale.id_token) {
        current = stored;
        return stored.id_token;
      }
      try {
        const fresh = await deps.client.call('refresh', {
          body: { refresh_token: stale.refresh_token },
          background: true,
        });
        current = fromServer(fresh, stale);
        await save(current);
        return current.id_token;
      } catch (error) {
        // Offline is not a rejection: keep the session and let the caller see the network error.
        if (!isNetworkError(error) && current === stale) {
          // Log first (000 §8), while there is still a token to send the log with.
          await deps.client.log({ event: 'token_refresh_failed', message: messageOf(error) });
          await end('session-lost', null);
        }
        throw error;
      }
    });

  deps.channel.addEventListener('message', (event) => {
    const message = event.data as ChannelMessage;
    if (!message || message.from === instance) return;
    if (message.kind === 'logout') {
      current = null;
      deps.hooks.changed();
      deps.broadcast({ type: 'logout', reason: message.reason, origin_tab: message.origin_tab });
    } else if (message.kind === 'session') {
      void load().then(async (stored) => {
        const previousUser = current?.user.id ?? null;
        current = stored ?? null;
        if (current) await deps.hooks.signedIn(current.user, previousUser, false);
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
    expired: (token) => current?.id_token === token && deps.clock.now() >= current.expires_at,
    refresh(stale) {
      if (!current) return Promise.reject(new ApiError(401, 'no_token', 'Not signed in'));
      if (current.id_token !== stale) return Promise.resolve(current.id_token);
      refreshing ??= doRefresh(current).finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
    missing() {
      // No token (000 §8): every tab shows the sign-in-required modal.
      deps.broadcast({ type: 'logout', reason: 'session-lost', origin_tab: null });
      post({ kind: 'logout', from: instance, reason: 'session-lost', origin_tab: null });
    },
    unauthorized(token) {
      // A 401 for a token other than the current one is a stale answer, not a lost session.
      if (current && current.id_token === token) void end('session-lost', null);
    },
    async signIn(body, _originTab, variant) {
      return adopt(await deps.client.call('signIn', { body, variant }));
    },
    async signUp(body, _originTab, variant) {
      return adopt(await deps.client.call('signUp', { body, variant }));
    },
    async signOut(originTab, variant) {
      if (current) {
        try {
          await deps.client.call('signOut', {
            body: { refresh_token: current.refresh_token },
            variant,
            background: true,
          });
        } catch {
          // Signing out locally matters more than telling a server we cannot reach.
        }
      }
      await end('signed-out', originTab);
    },
    forgotPassword: (body, variant) => deps.client.call('forgotPassword', { body, variant }),
    resetPassword: (body, variant) => deps.client.call('resetPassword', { body, variant }),
    check() {
      checking ??= (async () => {
        if (!current) return state();
        try {
          const answer = await deps.client.call('session', { background: true });
          if (current && JSON.stringify(answer.user) !== JSON.stringify(current.user)) {
            current = { ...current, user: answer.user };
            await save(current);
            deps.broadcast({ type: 'session', session: state() });
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
      const mirror = await deps.mirror;
      const path = await mirror.get<string>('kv', REDIRECT_KEY);
      if (path !== undefined) await mirror.write([{ store: 'kv', key: REDIRECT_KEY }]);
      return path ?? null;
    },
    async claimAnalytics() {
      if (!current || current.analytics_sent) return false;
      current = { ...current, analytics_sent: true };
      await save(current);
      return true;
    },
    close() {
      deps.channel.close();
    },
  };
}
