import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AppContext, AppDeps, AppEnv } from '../context';
import type { Database, Db } from '../db/schema';
import { refusalAfter } from '../http/user-limits';
import { iso } from '../time';

export type Kind = Database['auth_attempts']['kind'];

const MINUTE_MS = 60 * 1000;

/**
 * Brute-force limits, each a sliding window over rows of `auth_attempts`. A sign-in counts
 * under its device cookie when it carries a valid one for the account (10 failures lock that
 * cookie, nothing else), and otherwise under its e-mail (strangers to the account: growing
 * delays, UNTRUSTED below) and its client address or IPv6 /64 (one place guessing at many
 * accounts). Then reset mails per e-mail, and sign-ups and password resets per address (each
 * costs a scrypt hash), and wrong current passwords of a password change per user.
 */
export const THROTTLE = {
  signin_device: { limit: 10, windowMs: 15 * MINUTE_MS },
  signin_ip: { limit: 50, windowMs: 15 * MINUTE_MS },
  reset_mail: { limit: 5, windowMs: 60 * MINUTE_MS },
  signup_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
  reset_ip: { limit: 20, windowMs: 15 * MINUTE_MS },
  /** Wrong current passwords given to a password change, per user (a stolen token guessing). */
  password_user: { limit: 10, windowMs: 15 * MINUTE_MS },
} satisfies Record<Exclude<Kind, 'signin_email'>, { limit: number; windowMs: number }>;

/**
 * Sign-ins at an e-mail without a device cookie for it (OWASP's "untrusted clients"): never a
 * lock, a delay that grows with the failures of the last day. The first `free` go straight
 * to the password check; after n failures (n >= free) the next waits `firstDelayMs` *
 * 2^(n - free) after the newest, at most `maxDelayMs`: 1 s, 2 s, 4 s ... 15 minutes, so a
 * stranger gets about 110 guesses a day while the owner's browsers, trusted by their device
 * cookies, are not slowed at all.
 */
export const UNTRUSTED = {
  free: 5,
  firstDelayMs: 1000,
  maxDelayMs: 15 * MINUTE_MS,
  windowMs: 24 * 60 * MINUTE_MS,
};

/** How long the next untrusted sign-in waits after `failures` failures (from the newest). */
export const untrustedDelayMs = (failures: number) =>
  failures < UNTRUSTED.free
    ? 0
    : Math.min(UNTRUSTED.maxDelayMs, UNTRUSTED.firstDelayMs * 2 ** (failures - UNTRUSTED.free));

const windowMsOf = (kind: Kind) =>
  kind === 'signin_email' ? UNTRUSTED.windowMs : THROTTLE[kind].windowMs;

export const hashSubject = (subject: string) =>
  createHash('sha256').update(subject.trim().toLowerCase()).digest('hex');

/**
 * What a client address counts as: an IPv4 address (an IPv4-mapped IPv6 one included) as
 * itself, an IPv6 address as its /64 (one subscriber's network: a host given one can use any
 * of its 2^64 addresses), anything else (an unparsable forwarded value) as its text.
 */
export const addressKey = (address: string): string => {
  if (!ipaddr.isValid(address)) return address.trim().toLowerCase();
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`);
  return `${prefix.toString()}/64`;
};

/** The hashed subject of a client address (addressKey). */
export const addressSubject = (address: string) => hashSubject(addressKey(address));

/** What a limit counts: a kind and a hashed subject (an e-mail, an address, a device cookie). */
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
    .where('created_at', '>', iso(now - windowMsOf(kind)));

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
export const windowWaitMs = async (
  db: Db,
  kind: keyof typeof THROTTLE,
  subject: string,
  now: number,
): Promise<number> => {
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
export const refusal = async (
  db: Db,
  over: readonly { kind: keyof typeof THROTTLE; subject: string }[],
  now: number,
  what: string,
) => {
  let wait = 0;
  for (const a of over) wait = Math.max(wait, await windowWaitMs(db, a.kind, a.subject, now));
  return refusalAfter(wait, what);
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
    const attempts = await record(deps.db, [{ kind, subject: addressSubject(address) }], now);
    if ((await countSettled(deps.db, kind, attempts[0].subject, now)) > THROTTLE[kind].limit) {
      await forget(deps.db, attempts);
      throw await refusal(deps.db, [{ kind, subject: attempts[0].subject }], now, what);
    }
    return next();
  };

/**
 * A device cookie's subject: the e-mail's hash, then the nonce's, so that all of an e-mail's
 * device cookies share a prefix (a password reset clears them).
 */
export const deviceSubject = (email: string, nonce: string) =>
  `${hashSubject(email)}:${hashSubject(nonce)}`;

/**
 * Forgets an e-mail's failed sign-ins, its strangers' and its device cookies': on a password
 * reset (the owner has shown the mailbox is theirs, so someone else's guessing must not hold
 * them back). The addresses' counts stay: they are about other accounts too.
 */
export const clearSignInFailures = async (db: Db, email: string) => {
  const subject = hashSubject(email);
  await db
    .deleteFrom('auth_attempts')
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'signin_email'), eb('subject', '=', subject)]),
        eb.and([eb('kind', '=', 'signin_device'), eb('subject', 'like', `${subject}:%`)]),
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

const KINDS: readonly Kind[] = [...(Object.keys(THROTTLE) as Kind[]), 'signin_email'];

/**
 * Forgets attempts that have left their window, and rows of kinds no longer counted (the
 * e-mail and address pairs sign-in counted before device cookies).
 */
export const purgeAuthAttempts = async (db: Db, now: number) => {
  for (const kind of KINDS) {
    await db
      .deleteFrom('auth_attempts')
      .where('kind', '=', kind)
      .where('created_at', '<=', iso(now - windowMsOf(kind)))
      .execute();
  }
  await db.deleteFrom('auth_attempts').where('kind', 'not in', KINDS).execute();
};
