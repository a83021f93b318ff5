import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { User } from '../contract/auth';
import type { Database, Db, DialectName } from './db/schema';
import type { UserLimits } from './http/user-limits';
import type { Mailer } from './mailer';
import type { FileStorage } from './storage';
import type { UploadSettings } from './uploads';

/** Counters the bench and the tests read (see start.ts). */
export type ServerMetrics = {
  /** GET /api/auth/session calls. */
  authPolls: number;
  requests: number;
  openConnections: number;
  connectionsOpened: number;
};

/**
 * How much of each user's change log the periodic maintenance keeps (sync/compaction.ts): a
 * change goes once it is older than `maxAgeMs` or no longer among the user's newest
 * `maxPerUser`. A cursor older than what is kept gets `reset: true` from /sync/changes.
 */
export type ChangeRetention = { maxPerUser: number; maxAgeMs: number };

export const DEFAULT_CHANGE_RETENTION: ChangeRetention = {
  maxPerUser: 1_000,
  maxAgeMs: 30 * 24 * 3600 * 1000,
};

/**
 * An OpenAI-compatible chat completions endpoint for the assistant (LLM_BASE_URL, LLM_MODEL,
 * LLM_API_KEY): `baseUrl` such as http://localhost:11434/v1, without a trailing slash.
 */
export type LlmConfig = { baseUrl: string; model: string; apiKey?: string };

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
  /**
   * How long a request waits for a concurrent one with the same idempotency key to answer
   * before giving up with 409 (real time, not `now`). Default 5000 ms.
   */
  idempotencyWaitMs?: number;
  /** The change log's bound; DEFAULT_CHANGE_RETENTION unless a test asks for a small one. */
  changeRetention?: ChangeRetention;
  /**
   * How long a sign-in waits with none of the earlier attempts at the same account finishing
   * their password check before it is refused (real time; see auth/sign-in-throttle.ts).
   * Default 5000 ms.
   */
  signInWaitMs?: number;
  /** The assistant answers with this model when set; with the extractive answerer otherwise. */
  llm?: LlmConfig;
  /** Per-user limits (http/user-limits.ts); DEFAULT_USER_LIMITS where unset. */
  userLimits?: Partial<UserLimits>;
  /** Uploaded files (server/storage); without it the upload routes answer 500. */
  storage?: FileStorage;
  /** Upload limits and plans (uploads/settings.ts); the defaults where unset. */
  uploads?: Partial<UploadSettings>;
  /** The upload processing runner, woken when files are queued (set by start.ts). */
  uploadRunner?: { kick(): void };
};

/** The caller, when the `token` header holds a live id token. */
export type AuthInfo = { user: User; tokenHash: string; familyId: string; expiresAt: string };

export type AppEnv = {
  Variables: {
    /** The database, or the request's transaction once `transact` has opened one. */
    db: Db;
    auth: AuthInfo | null;
    /** Why `auth` is null: no header, an unknown token, or a known one that expired. */
    authProblem: 'missing' | 'unknown' | 'expired' | null;
    /**
     * The owner of a known id token that has expired or been revoked (null otherwise). Only
     * routes that accept such a token read it (POST /debug-logs: see routes/telemetry.ts).
     */
    staleAuth: AuthInfo | null;
    /**
     * Set by the idempotency middleware for a keyed request: opens (once) the request's
     * transaction, which the middleware commits together with the stored answer. Null when
     * the request has no key. Handlers reach it through `transact`.
     */
    openRequestTransaction: (() => Promise<Db>) | null;
    /** Work to start once the request's writes are committed (mail). */
    afterCommit: Array<() => void>;
    /** Writes that must stick even when the answer is an error (and so rolled back). */
    afterTransaction: Array<(db: Db) => Promise<void>>;
  };
};

export type AppContext = Context<AppEnv>;

/**
 * Runs a handler's writes in one transaction and returns what `fn` returns. Under an
 * idempotency key the transaction is the request's: it stays open after `fn` so that the
 * middleware stores the answer in it and commits both together (an error answer rolls it
 * back). Reads before it and slow work such as password hashing belong outside `fn`: on SQLite
 * and PGlite an open transaction holds the only connection, so every other request waits.
 */
export const transact = async <T>(c: AppContext, fn: (db: Db) => Promise<T>): Promise<T> => {
  if (c.var.db.isTransaction) return fn(c.var.db);
  const open = c.var.openRequestTransaction;
  if (open) return fn(await open());
  // A transaction of its own; mail (afterCommit) leaves once it has committed.
  const root = c.var.db;
  try {
    const result = await root.transaction().execute((trx) => {
      c.set('db', trx);
      return fn(trx);
    });
    c.set('db', root);
    for (const start of c.var.afterCommit.splice(0)) start();
    return result;
  } finally {
    c.set('db', root);
    c.var.afterCommit.splice(0);
    for (const write of c.var.afterTransaction.splice(0)) await write(root);
  }
};

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
