import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { sql } from 'kysely';
import { SignInBody } from '../../contract/auth';
import type { AppContext, AppDeps, AppEnv } from '../context';
import type { Db, DialectName } from '../db/schema';
import { inTransaction } from '../db/tx';
import { iso } from '../time';
import {
  clientAddress,
  forget,
  hashSubject,
  inWindow,
  pairSubject,
  record,
  refusal,
  THROTTLE,
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

/** Failures in the window (settled rows, and pending ones gone stale) and pending checks. */
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
    ])
    .executeTakeFirstOrThrow();
  // PostgreSQL counts in bigint, which pg hands over as text.
  return { failed: Number(row.failed), pending: Number(row.pending) };
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
  /** Windows full of failures. */
  | { outcome: 'full'; over: Subject[] }
  /** Windows with no room unless a pending check ends well: wait for the checks `pending`. */
  | { outcome: 'blocked'; over: Subject[]; pending: string[] };

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
 * Under the subjects' locks: refused if a window holds `limit` failures; told to wait if it
 * has no room for one more should every pending check fail; otherwise written down as pending.
 */
const admit = (
  deps: Pick<AppDeps, 'db' | 'dialect'>,
  subjects: readonly Subject[],
  now: number,
): Promise<Admission> =>
  inTransaction(deps.db, async (trx) => {
    await lockSubjects(trx, deps.dialect, subjects);
    const full: Subject[] = [];
    const blocked: Subject[] = [];
    for (const s of subjects) {
      const { failed, pending } = await tally(trx, s.kind, s.subject, now);
      const { limit } = THROTTLE[s.kind];
      if (failed >= limit) full.push(s);
      else if (failed + pending + 1 > limit) blocked.push(s);
    }
    if (full.length) return { outcome: 'full', over: full };
    if (blocked.length) {
      const pending: string[] = [];
      for (const s of blocked) pending.push(...(await pendingIds(trx, s.kind, s.subject, now)));
      return { outcome: 'blocked', over: blocked, pending };
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
 * An attempt counts under its e-mail and address pair, its e-mail and its address (THROTTLE).
 * It goes to the password check only when each of those windows has room for it even if every
 * check still running fails; it is then written down as pending, in the same locked step
 * (`admit`), so guesses sent in parallel, to one server or several, see each other: at most
 * `limit` of them reach the check, the rest wait for those to settle and are refused with 429
 * (even with the right password) once a window is full of failures. Only a 401 turns the
 * attempt into failures; a success is struck off and clears its pair's failures (not the
 * e-mail's or the address's: an account of one's own must not buy guesses elsewhere), so
 * sign-ins that succeed never hold each other back.
 * Any other answer (a malformed body, an internal error) was no guess and is struck off too.
 */
export const signInThrottle = (
  deps: Pick<AppDeps, 'db' | 'dialect' | 'now' | 'trustProxy' | 'signInWaitMs'>,
): MiddlewareHandler<AppEnv> => {
  const bell = settleBell();
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // A malformed body is the route's to refuse with a 400; it never reaches a password check.
    const body = await readSignIn(c);
    if (!body) return next();
    const address = clientAddress(c, deps.trustProxy ?? false);
    const subjects: Subject[] = [
      { kind: 'signin_pair', subject: pairSubject(body.email, address) },
      { kind: 'signin_email', subject: hashSubject(body.email) },
    ];
    if (address) subjects.push({ kind: 'signin_ip', subject: hashSubject(address) });
    const turn = await awaitTurn(deps, bell, subjects);
    if (turn.outcome !== 'go') {
      throw await refusal(deps.db, turn.over, deps.now(), 'failed sign-in attempts');
    }
    const { attempts } = turn;
    try {
      await settle(deps, c, next, attempts);
    } finally {
      bell.ring();
    }
  };
};

/** Runs the password check, then turns the pending attempt into failures or strikes it off. */
const settle = async (
  deps: Pick<AppDeps, 'db'>,
  c: AppContext,
  next: () => Promise<void>,
  attempts: Attempt[],
) => {
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
    return;
  }
  await forget(deps.db, attempts);
  if (c.res.status < 400) {
    await deps.db
      .deleteFrom('auth_attempts')
      .where('kind', '=', 'signin_pair')
      .where('subject', '=', attempts[0].subject)
      .where('pending', '=', 0)
      .execute();
  }
};
