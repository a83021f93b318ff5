import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { sql } from 'kysely';
import { SignInBody } from '../../contract/auth';
import type { AppContext, AppDeps, AppEnv } from '../context';
import type { Db, DialectName } from '../db/schema';
import { inTransaction } from '../db/tx';
import { refusalAfter } from '../http/user-limits';
import { iso } from '../time';
import { createDeviceCookies } from './device-cookie';
import {
  addressSubject,
  clientAddress,
  deviceSubject,
  forget,
  hashSubject,
  inWindow,
  record,
  THROTTLE,
  untrustedDelayMs,
  windowWaitMs,
  type Attempt,
  type Kind,
  type Subject,
} from './throttle';

/** A pending check older than this (by `now`) belongs to a server that died: a failure. */
const PENDING_STALE_MS = 60 * 1000;
/**
 * How often a blocked attempt looks again when nothing in this process woke it (a check
 * settling on another server). Not much more often: on a database of one connection (PGlite),
 * waiting attempts that poll every few milliseconds starve the checks they wait for.
 */
const POLL_MS = 100;
const DEFAULT_WAIT_MS = 5000;

const readSignIn = async (c: AppContext) => {
  try {
    const parsed = SignInBody.safeParse(JSON.parse(await c.req.text()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/**
 * Failures in the window (settled rows, and pending ones gone stale), pending checks, and when
 * the newest failure was.
 */
const tally = async (db: Db, kind: Kind, subject: string, now: number) => {
  const stale = iso(now - PENDING_STALE_MS);
  const row = await inWindow(db, kind, subject, now)
    .select((eb) => [
      eb.fn
        .countAll()
        .filterWhere((w) => w.or([w('pending', '=', 0), w('created_at', '<=', stale)]))
        .as('failed'),
      eb.fn
        .countAll()
        .filterWhere((w) => w.and([w('pending', '=', 1), w('created_at', '>', stale)]))
        .as('pending'),
      eb.fn
        .max('created_at')
        .filterWhere((w) => w.or([w('pending', '=', 0), w('created_at', '<=', stale)]))
        .as('newest'),
    ])
    .executeTakeFirstOrThrow();
  // PostgreSQL counts in bigint, which pg hands over as text.
  return {
    failed: Number(row.failed),
    pending: Number(row.pending),
    newest: row.newest ? Date.parse(row.newest) : null,
  };
};
type Tally = Awaited<ReturnType<typeof tally>>;

type Verdict =
  | { outcome: 'go' }
  /** No room: `waitMs` until there is (null: a window's, read from its rows). */
  | { outcome: 'full'; waitMs: number | null }
  /** Room only if a pending check ends well. */
  | { outcome: 'blocked' };

/**
 * Whether one more attempt fits a subject, counting every pending check as a failure to come.
 * Windows (a device cookie, an address): room while fewer than `limit` failures. Strangers at
 * an e-mail: the first few go at once, then each waits untrustedDelayMs after the newest
 * failure (a growing delay, never a lock).
 */
const judge = (kind: Kind, { failed, pending, newest }: Tally, now: number): Verdict => {
  if (kind === 'signin_email') {
    if (untrustedDelayMs(failed + pending) === 0) return { outcome: 'go' };
    if (pending > 0) return { outcome: 'blocked' };
    const readyAt = (newest ?? now) + untrustedDelayMs(failed);
    return now >= readyAt ? { outcome: 'go' } : { outcome: 'full', waitMs: readyAt - now };
  }
  const { limit } = THROTTLE[kind];
  if (failed >= limit) return { outcome: 'full', waitMs: null };
  if (failed + pending + 1 > limit) return { outcome: 'blocked' };
  return { outcome: 'go' };
};

/**
 * Takes the lock of each subject for the rest of the transaction, so that one attempt at a
 * time counts a subject's rows and adds its own. PostgreSQL: advisory transaction locks, taken
 * in one order so that two attempts cannot deadlock. SQLite: a write takes the database's
 * write lock (one process already takes turns on its one connection).
 */
const lockSubjects = async (db: Db, dialect: DialectName, subjects: readonly Subject[]) => {
  if (dialect === 'sqlite') {
    await db.updateTable('auth_attempts').set({ pending: 0 }).where('id', '=', '').execute();
    return;
  }
  const keys = subjects.map(({ kind, subject }) => {
    const hex = createHash('sha256').update(`${kind}:${subject}`).digest('hex').slice(0, 16);
    return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
  });
  for (const key of keys.sort())
    await sql`select pg_advisory_xact_lock(${key}::bigint)`.execute(db);
};

type Admission =
  /** Written down as pending: go to the password check. */
  | { outcome: 'go'; attempts: Attempt[] }
  /** No room for `waitMs`. */
  | { outcome: 'full'; waitMs: number }
  /** No room unless a pending check ends well: wait for the checks `pending`. */
  | { outcome: 'blocked'; pending: string[] };

/** The ids of a window's pending checks that are not stale. */
const pendingIds = async (db: Db, kind: Kind, subject: string, now: number) => {
  const rows = await inWindow(db, kind, subject, now)
    .where('pending', '=', 1)
    .where('created_at', '>', iso(now - PENDING_STALE_MS))
    .select('id')
    .execute();
  return rows.map((r) => r.id);
};

/**
 * Under the subjects' locks: refused if a subject has no room (`judge`); told to wait if it
 * has none should every pending check fail; otherwise written down as pending.
 */
const admit = (
  deps: Pick<AppDeps, 'db' | 'dialect'>,
  subjects: readonly Subject[],
  now: number,
): Promise<Admission> =>
  inTransaction(deps.db, async (trx) => {
    await lockSubjects(trx, deps.dialect, subjects);
    let full: number | null = null;
    const blocked: Subject[] = [];
    for (const s of subjects) {
      const verdict = judge(s.kind, await tally(trx, s.kind, s.subject, now), now);
      if (verdict.outcome === 'full') {
        const wait =
          verdict.waitMs ??
          (s.kind === 'signin_email' ? 0 : await windowWaitMs(trx, s.kind, s.subject, now));
        full = Math.max(full ?? 0, wait);
      } else if (verdict.outcome === 'blocked') blocked.push(s);
    }
    if (full !== null) return { outcome: 'full', waitMs: full };
    if (blocked.length) {
      const pending: string[] = [];
      for (const s of blocked) pending.push(...(await pendingIds(trx, s.kind, s.subject, now)));
      return { outcome: 'blocked', pending };
    }
    return { outcome: 'go', attempts: await record(trx, subjects, now, true) };
  });

/** Wakes the attempts waiting in this process whenever one of its checks settles. */
const settleBell = () => {
  const sleepers = new Set<() => void>();
  return {
    /** Resolves when `ring` is called, or after POLL_MS. */
    wait: () =>
      new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, POLL_MS);
        sleepers.add(wake);
      }),
    ring: () => {
      for (const wake of [...sleepers]) wake();
    },
  };
};
type SettleBell = ReturnType<typeof settleBell>;

/**
 * Admits the attempt, waiting while it is blocked. It waits as long as the checks ahead of it
 * keep settling (a busy server is slow, not stuck), and gives up after `signInWaitMs` of real
 * time in which none of them settled; a check that never settles goes stale and counts as a
 * failure after PENDING_STALE_MS.
 */
const awaitTurn = async (
  deps: Pick<AppDeps, 'db' | 'dialect' | 'now' | 'signInWaitMs'>,
  bell: SettleBell,
  subjects: readonly Subject[],
): Promise<Admission> => {
  const patience = deps.signInWaitMs ?? DEFAULT_WAIT_MS;
  let deadline = Date.now() + patience;
  let ahead = new Set<string>();
  for (;;) {
    const admission = await admit(deps, subjects, deps.now());
    if (admission.outcome !== 'blocked') return admission;
    const settled = [...ahead].some((id) => !admission.pending.includes(id));
    if (settled) deadline = Date.now() + patience;
    ahead = new Set(admission.pending);
    if (Date.now() >= deadline) return admission;
    await bell.wait();
  }
};

/**
 * Guards POST /auth/signin; mounted before the idempotency middleware so that its writes are
 * its own and never rolled back with a failing request's transaction.
 *
 * OWASP's device cookies (device-cookie.ts): an attempt that brings a valid device cookie for
 * its e-mail counts under that cookie alone (THROTTLE.signin_device: 10 failures lock that
 * cookie for 15 minutes, nothing else), so a browser that has signed in keeps signing in
 * whatever strangers do. Any other attempt counts under its e-mail (strangers to the account:
 * growing delays, UNTRUSTED) and its client address or IPv6 /64 (THROTTLE.signin_ip).
 *
 * It goes to the password check only when each subject has room for it even if every check
 * still running fails; it is then written down as pending, in the same locked step (`admit`),
 * so guesses sent in parallel, to one server or several, see each other: only as many as fit
 * reach the check, the rest wait for those to settle and are refused with 429 and Retry-After
 * (even with the right password) while there is no room. Only a 401 turns the attempt into
 * failures. A success is struck off, clears its device cookie's failures (not the e-mail's or
 * the address's: the strangers are still strangers, and an account of one's own must not buy
 * guesses elsewhere) and sets a new device cookie. Any other answer (a malformed body, an
 * internal error) was no guess and is struck off too.
 */
export const signInThrottle = (
  deps: Pick<AppDeps, 'db' | 'dialect' | 'now' | 'product' | 'trustProxy' | 'signInWaitMs'>,
): MiddlewareHandler<AppEnv> => {
  const bell = settleBell();
  const devices = createDeviceCookies(deps);
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // A malformed body is the route's to refuse with a 400; it never reaches a password check.
    const body = await readSignIn(c);
    if (!body) return next();
    const nonce = await devices.read(c, body.email);
    const subjects: Subject[] = [];
    if (nonce) subjects.push({ kind: 'signin_device', subject: deviceSubject(body.email, nonce) });
    else {
      subjects.push({ kind: 'signin_email', subject: hashSubject(body.email) });
      const address = clientAddress(c, deps.trustProxy ?? false);
      if (address) subjects.push({ kind: 'signin_ip', subject: addressSubject(address) });
    }
    const turn = await awaitTurn(deps, bell, subjects);
    // Blocked for signInWaitMs with nothing ahead settling: come back shortly.
    if (turn.outcome !== 'go') {
      throw refusalAfter(turn.outcome === 'full' ? turn.waitMs : 1000, 'failed sign-in attempts');
    }
    const { attempts } = turn;
    try {
      if (await settle(deps, c, next, attempts)) await devices.issue(c, body.email);
    } finally {
      bell.ring();
    }
  };
};

/**
 * Runs the password check, then turns the pending attempt into failures or strikes it off.
 * Answers whether the sign-in succeeded.
 */
const settle = async (
  deps: Pick<AppDeps, 'db'>,
  c: AppContext,
  next: () => Promise<void>,
  attempts: Attempt[],
): Promise<boolean> => {
  try {
    await next();
  } catch (err) {
    await forget(deps.db, attempts);
    throw err;
  }
  if (c.res.status === 401) {
    await deps.db
      .updateTable('auth_attempts')
      .set({ pending: 0 })
      .where(
        'id',
        'in',
        attempts.map((a) => a.id),
      )
      .execute();
    return false;
  }
  await forget(deps.db, attempts);
  if (c.res.status >= 400) return false;
  const device = attempts.find((a) => a.kind === 'signin_device');
  if (device) {
    await deps.db
      .deleteFrom('auth_attempts')
      .where('kind', '=', 'signin_device')
      .where('subject', '=', device.subject)
      .where('pending', '=', 0)
      .execute();
  }
  return true;
};
