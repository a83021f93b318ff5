import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { AppContext, AppDeps, AppEnv } from '../context';
import type { Database, Db } from '../db/schema';
import { rateLimited } from '../errors';
import { iso } from '../time';

export type Kind = Database['auth_attempts']['kind'];

const MINUTE_MS = 60 * 1000;

/**
 * Brute-force limits, each a sliding window over rows of `auth_attempts`. Failed sign-ins are
 * counted three ways: per e-mail and client address pair (someone guessing at one account from
 * one place), per e-mail from everywhere (a much higher ceiling, so guessing from elsewhere
 * cannot lock the owner out of their own address), and per address (one place guessing at many
 * accounts). Then reset mails per e-mail, and sign-ups and password resets per address (each
 * costs a scrypt hash).
 */
export const THROTTLE: Record<Kind, { limit: number; windowMs: number }> = {
  signin_pair: { limit: 10, windowMs: 15 * MINUTE_MS },
  signin_email: { limit: 100, windowMs: 15 * MINUTE_MS },
  signin_ip: { limit: 50, windowMs: 15 * MINUTE_MS },
  reset_mail: { limit: 5, windowMs: 60 * MINUTE_MS },
  signup_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
  reset_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
};

export const hashSubject = (subject: string) =>
  createHash('sha256').update(subject.trim().toLowerCase()).digest('hex');

/** An e-mail and address pair: the two hashes, so that all of an e-mail's pairs share a prefix. */
export const pairSubject = (email: string, address: string | null) =>
  `${hashSubject(email)}:${hashSubject(address ?? '')}`;

/** What a limit counts: a kind and a hashed subject (an e-mail, an address, or a pair). */
export type Subject = { kind: Kind; subject: string };
export type Attempt = Subject & { id: string; created_at: string };

/** Writes an attempt down: one row per kind and subject it counts under. */
export const record = async (
  db: Db,
  subjects: readonly Subject[],
  now: number,
  pending = false,
): Promise<Attempt[]> => {
  const attempts = subjects.map(({ kind, subject }) => ({
    id: randomUUID(),
    kind,
    subject,
    created_at: iso(now),
  }));
  await db
    .insertInto('auth_attempts')
    .values(attempts.map((a) => ({ ...a, pending: pending ? 1 : 0 })))
    .execute();
  return attempts;
};

export const forget = async (db: Db, attempts: readonly Attempt[]) => {
  if (!attempts.length) return;
  await db
    .deleteFrom('auth_attempts')
    .where(
      'id',
      'in',
      attempts.map((a) => a.id),
    )
    .execute();
};

/** The rows of one subject within its window (settled ones: failures, mails, attempts). */
export const inWindow = (db: Db, kind: Kind, subject: string, now: number) =>
  db
    .selectFrom('auth_attempts')
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('created_at', '>', iso(now - THROTTLE[kind].windowMs));

export const countSettled = async (
  db: Db,
  kind: Kind,
  subject: string,
  now: number,
): Promise<number> => {
  const row = await inWindow(db, kind, subject, now)
    .where('pending', '=', 0)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  // PostgreSQL counts in bigint, which pg hands over as text.
  return Number(row.n);
};

/** How long until fewer than `limit` settled rows remain in the window, so one more fits. */
const waitMs = async (db: Db, kind: Kind, subject: string, now: number): Promise<number> => {
  const { limit, windowMs } = THROTTLE[kind];
  const row = await inWindow(db, kind, subject, now)
    .where('pending', '=', 0)
    .select('created_at')
    .orderBy('created_at', 'desc')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  return row ? Date.parse(row.created_at) + windowMs - now : 0;
};

/** A 429 saying when the fullest of the `over` windows has room again. */
export const refusal = async (db: Db, over: readonly Subject[], now: number, what: string) => {
  let wait = 0;
  for (const a of over) wait = Math.max(wait, await waitMs(db, a.kind, a.subject, now));
  const seconds = Math.max(1, Math.ceil(wait / 1000));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return rateLimited(
    `too many ${what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    seconds,
  );
};

/**
 * The caller's address: the socket's peer or, behind a proxy trusted with TRUST_PROXY=1, the
 * last address of x-forwarded-for (the one that proxy appended; earlier ones are the client's
 * say-so). Null when unknown, as for in-process requests.
 */
export const pickClientAddress = (
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string | null => {
  const forwarded = trustProxy
    ? forwardedFor
        ?.split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1)
    : undefined;
  const address = forwarded ?? socketAddress;
  // An IPv4 client of a dual-stack socket shows up as ::ffff:a.b.c.d.
  return address ? address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') : null;
};

export const clientAddress = (c: AppContext, trustProxy: boolean): string | null => {
  // @hono/node-server hands the Node request over as c.env.incoming.
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return pickClientAddress(
    c.req.header('x-forwarded-for'),
    env?.incoming?.socket?.remoteAddress,
    trustProxy,
  );
};

/**
 * Guards a POST that costs a password hash (sign-up, password reset): at most
 * THROTTLE[kind].limit attempts per client address in the window, whatever their outcome.
 * Each attempt is written down before it is counted (parallel ones see each other) and is its
 * own write, mounted ahead of the idempotency middleware. Requests without a known address
 * (in-process) are not counted.
 */
export const addressThrottle =
  (
    deps: Pick<AppDeps, 'db' | 'now' | 'trustProxy'>,
    kind: 'signup_ip' | 'reset_ip',
    what: string,
  ): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const address = clientAddress(c, deps.trustProxy ?? false);
    if (!address) return next();
    const now = deps.now();
    const attempts = await record(deps.db, [{ kind, subject: hashSubject(address) }], now);
    if ((await countSettled(deps.db, kind, attempts[0].subject, now)) > THROTTLE[kind].limit) {
      await forget(deps.db, attempts);
      throw await refusal(deps.db, attempts, now, what);
    }
    return next();
  };

/**
 * Forgets an e-mail's failed sign-ins from every address: on a password reset (the owner has
 * shown the mailbox is theirs, so someone else's guessing must not lock them out).
 */
export const clearSignInFailures = async (db: Db, email: string) => {
  const subject = hashSubject(email);
  await db
    .deleteFrom('auth_attempts')
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'signin_email'), eb('subject', '=', subject)]),
        eb.and([eb('kind', '=', 'signin_pair'), eb('subject', 'like', `${subject}:%`)]),
      ]),
    )
    .execute();
};

/**
 * Whether one more reset mail may go to `email` now (THROTTLE.reset_mail); if so it is counted.
 * Call in the request's transaction: the count commits with the mail's reset token.
 */
export const takeResetMailAllowance = async (
  db: Db,
  email: string,
  now: number,
): Promise<boolean> => {
  const subject = hashSubject(email);
  if ((await countSettled(db, 'reset_mail', subject, now)) >= THROTTLE.reset_mail.limit) {
    return false;
  }
  await record(db, [{ kind: 'reset_mail', subject }], now);
  return true;
};

/** Forgets attempts that have left their window. */
export const purgeAuthAttempts = async (db: Db, now: number) => {
  for (const kind of Object.keys(THROTTLE) as Kind[]) {
    await db
      .deleteFrom('auth_attempts')
      .where('kind', '=', kind)
      .where('created_at', '<=', iso(now - THROTTLE[kind].windowMs))
      .execute();
  }
};
