import type {
  ChangePasswordBody,
  ForgotPasswordBody,
  ResetPasswordBody,
  SessionState,
  SignInBody,
  SignUpBody,
  UpdateProfileBody,
  User,
} from '../../contract/auth';
import type { Ok } from '../../contract/common';
import type { Variant } from '../../contract/tabs';
import type { StoreName, WriteGuard } from '../mirror';

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
  /** A token fresher than `stale` (`label`: the call that asks, named in a failure's log). */
  refresh(stale: string, label?: string): Promise<string>;
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
  /** The display name: the server's user is stored in the session and told to every tab. */
  updateProfile(body: UpdateProfileBody, variant: Variant): Promise<SessionState>;
  /** Other sign-ins end on the server; this one stays. */
  changePassword(body: ChangePasswordBody, variant: Variant): Promise<Ok>;
  /** The server ends every sign-in of the user first (a failure throws), then this one ends. */
  signOutEverywhere(originTab: string | null, variant: Variant): Promise<void>;
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
