import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { User } from '../contract/auth';
import type { Database, Db, DialectName } from './db/schema';
import type { Mailer } from './mailer';

/** Counters the bench and the tests read (see start.ts). */
export type ServerMetrics = {
  /** GET /api/auth/session calls. */
  authPolls: number;
  requests: number;
  openConnections: number;
  connectionsOpened: number;
};

/** Everything the app needs, injected (see createApp). */
export type AppDeps = {
  db: Kysely<Database>;
  dialect: DialectName;
  product: string;
  /** The built app (index.html and assets). */
  distDir: string;
  idTokenTtlSeconds: number;
  now: () => number;
  log: (line: string) => void;
  mailer: Mailer;
  /** Base of links sent by mail, e.g. http://localhost:8080. */
  publicUrl: () => string;
  metrics: ServerMetrics;
  /**
   * Take the client address from x-forwarded-for (set TRUST_PROXY=1 only behind a proxy that
   * appends it); otherwise the socket's peer address counts.
   */
  trustProxy?: boolean;
};

/** The caller, when the `token` header holds a live id token. */
export type AuthInfo = { user: User; tokenHash: string; familyId: string; expiresAt: string };

export type AppEnv = {
  Variables: {
    /** The database, or the request's transaction when an idempotency key wraps it in one. */
    db: Db;
    auth: AuthInfo | null;
    /** Why `auth` is null: no header, an unknown token, or a known one that expired. */
    authProblem: 'missing' | 'unknown' | 'expired' | null;
    /** Work to start once the request's writes are committed (mail). */
    afterCommit: Array<() => void>;
    /** Writes that must stick even when the answer is an error (and so rolled back). */
    afterTransaction: Array<(db: Db) => Promise<void>>;
  };
};

export type AppContext = Context<AppEnv>;

/**
 * Starts `fn` once the request's transaction commits (at once if there is none). `fn` must not
 * throw and should not be awaited by the response: a slow SMTP server must neither hold the
 * database nor reveal by timing whether an account exists.
 */
export const afterCommit = (c: AppContext, fn: () => void): void => {
  if (c.var.db.isTransaction) c.var.afterCommit.push(fn);
  else fn();
};

/**
 * Runs `fn` once the request's transaction is over, committed or rolled back (at once if there
 * is none): for security writes that must persist although the request fails, such as ending
 * a sign-in whose refresh token was replayed.
 */
export const afterTransaction = async (
  c: AppContext,
  fn: (db: Db) => Promise<void>,
): Promise<void> => {
  if (c.var.db.isTransaction) c.var.afterTransaction.push(fn);
  else await fn(c.var.db);
};
