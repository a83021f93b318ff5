import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { SignInBody } from '../contract/auth';
import type { AppContext, AppDeps, AppEnv } from './context';
import type { Database, Db } from './db/schema';
import { rateLimited } from './errors';
import { iso } from './time';

type Kind = Database['auth_attempts']['kind'];

const MINUTE_MS = 60 * 1000;

/**
 * Brute-force limits, each a sliding window over rows of `auth_attempts`: failed sign-ins per
 * e-mail and per client address (an address guessing at many accounts), reset mails per e-mail,
 * and sign-ups and password resets per client address (each costs a scrypt hash).
 */
export const THROTTLE: Record<Kind, { limit: number; windowMs: number }> = {
  signin_email: { limit: 10, windowMs: 15 * MINUTE_MS },
  signin_ip: { limit: 50, windowMs: 15 * MINUTE_MS },
  reset_mail: { limit: 5, windowMs: 60 * MINUTE_MS },
  signup_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
  reset_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
};

const hashSubject = (subject: string) => createHash('sha256').update(subject).digest('hex');

type Attempt = { id: string; kind: Kind; subject: string };

const record = async (db: Db, kind: Kind, subject: string, now: number): Promise<Attempt> => {
  const attempt = { id: randomUUID(), kind, subject: hashSubject(subject) };
  await db
    .insertInto('auth_attempts')
    .values({ ...attempt, created_at: iso(now) })
    .execute();
  return attempt;
};

const forget = async (db: Db, attempts: Attempt[]) => {
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

const inWindow = (db: Db, kind: Kind, subject: string, now: number) =>
  db
    .selectFrom('auth_attempts')
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('created_at', '>', iso(now - THROTTLE[kind].windowMs));

const countRecent = async (db: Db, kind: Kind, subject: string, now: number): Promise<number> => {
  const row = await inWindow(db, kind, subject, now)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  // PostgreSQL counts in bigint, which pg hands over as text.
  return Number(row.n);
};

/** How long until fewer than `limit` rows remain in the window, so one more attempt fits. */
const waitMs = async (db: Db, kind: Kind, subject: string, now: number): Promise<number> => {
  const { limit, windowMs } = THROTTLE[kind];
  const row = await inWindow(db, kind, subject, now)
    .select('created_at')
    .orderBy('created_at', 'desc')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  return row ? Date.parse(row.created_at) + windowMs - now : 0;
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

const clientAddress = (c: AppContext, trustProxy: boolean): string | null => {
  // @hono/node-server hands the Node request over as c.env.incoming.
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return pickClientAddress(
    c.req.header('x-forwarded-for'),
    env?.incoming?.socket?.remoteAddress,
    trustProxy,
  );
};

const readSignIn = async (c: AppContext) => {
  try {
    const parsed = SignInBody.safeParse(JSON.parse(await c.req.text()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** A 429 saying when the fullest of the `over` windows has room again. */
const refusal = async (db: Db, over: Attempt[], now: number, what: string) => {
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
 * Guards POST /auth/signin; mounted before the idempotency middleware so that its writes are
 * its own and never rolled back with a failing request's transaction.
 *
 * Each attempt is written down as a failure before the password is checked and the window is
 * counted with it, so guesses sent in parallel see each other: at most `limit` of them reach
 * the password check. Over a limit the attempt is struck off again and refused with 429 (even
 * with the right password). A success clears the e-mail's failures (not the address's: an
 * account of one's own must not buy more guesses at others); an answer other than 401 (a
 * malformed body, an internal error) was no guess, so it is struck off too.
 */
export const signInThrottle =
  (deps: Pick<AppDeps, 'db' | 'now' | 'trustProxy'>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // A malformed body is the route's to refuse with a 400; it never reaches a password check.
    const body = await readSignIn(c);
    if (!body) return next();
    const now = deps.now();
    const address = clientAddress(c, deps.trustProxy ?? false);
    const attempts = [await record(deps.db, 'signin_email', body.email, now)];
    if (address) attempts.push(await record(deps.db, 'signin_ip', address, now));

    const over: Attempt[] = [];
    for (const a of attempts) {
      if ((await countRecent(deps.db, a.kind, a.subject, now)) > THROTTLE[a.kind].limit) {
        over.push(a);
      }
    }
    if (over.length) {
      await forget(deps.db, attempts);
      throw await refusal(deps.db, over, now, 'failed sign-in attempts');
    }

    await next();
    const status = c.res.status;
    if (status < 400) {
      await clearSignInFailures(deps.db, body.email);
      await forget(deps.db, attempts.slice(1));
    } else if (status !== 401) {
      await forget(deps.db, attempts);
    }
  };

/**
 * Guards a POST that costs a password hash (sign-up, password reset): at most
 * THROTTLE[kind].limit attempts per client address in the window, whatever their outcome.
 * Like signInThrottle, each attempt is written down before it is counted (parallel ones see
 * each other) and is its own write, mounted ahead of the idempotency middleware. Requests
 * without a known address (in-process) are not counted.
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
    const attempt = await record(deps.db, kind, address, now);
    if ((await countRecent(deps.db, kind, attempt.subject, now)) > THROTTLE[kind].limit) {
      await forget(deps.db, [attempt]);
      throw await refusal(deps.db, [attempt], now, what);
    }
    return next();
  };

/**
 * Forgets an e-mail's failed sign-ins: on a successful sign-in, and on a password reset (the
 * owner has shown the mailbox is theirs, so someone else's guessing must not lock them out).
 */
export const clearSignInFailures = async (db: Db, email: string) => {
  await db
    .deleteFrom('auth_attempts')
    .where('kind', '=', 'signin_email')
    .where('subject', '=', hashSubject(email.trim().toLowerCase()))
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
  const subject = email.trim().toLowerCase();
  if (
    (await countRecent(db, 'reset_mail', hashSubject(subject), now)) >= THROTTLE.reset_mail.limit
  ) {
    return false;
  }
  await record(db, 'reset_mail', subject, now);
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
