import type { OutboxEntry } from '../contract/sync';
import type { Variant } from '../contract/tabs';
import { ApiError, isNetworkError, messageOf } from './api-client';
import { isRateLimited } from './api-errors';
import type { PatchItem } from './mirror';

/**
 * The outbox's records and the rules on them: which entries go in order, when a failed one is
 * due again, and which failures are the server saying no.
 */

/** An outbox record: the contract's entry plus what the worker needs to send or undo it. */
export type StoredEntry = OutboxEntry & {
  user_id: string;
  variant: Variant;
  /** The mirror records the optimistic writes replaced, put back on a rejection. */
  undo: PatchItem<string>[];
  /** Entries with the same key are sent in order; different keys are independent. */
  order_key: string;
  /** Clock time before which a failed entry is not sent again (0: at once). */
  next_attempt: number;
  /** The wait that set `next_attempt`; doubles with every failure. */
  backoff_ms: number;
  /** Its last attempt never reached the server: the network's return makes it due at once. */
  offline: boolean;
  /** Its last attempt was answered 429: the server asked for it later (the tabs were told). */
  rate_limited?: boolean;
};

export const BACKOFF_START_MS = 5_000;
export const BACKOFF_MAX_MS = 300_000;
/**
 * The longest a 429's Retry-After is waited for (the server's longest window is an hour); a
 * 429 without one waits as any failure does.
 */
export const RETRY_AFTER_MAX_MS = 3_600_000;
/** The shortest: a Retry-After of 0 is not an invitation to send again at once. */
export const RETRY_AFTER_MIN_MS = 1_000;
/** A server that keeps failing (5xx) the same entry this often has rejected it. */
export const MAX_ATTEMPTS = 8;

/**
 * A new entry, due at once. `orderKey` null: independent of every other entry (its own id is
 * its queue); otherwise entries of the same op and key go in order.
 */
export const newEntry = (e: {
  id: string;
  key: string;
  op: string;
  input: unknown;
  variant: Variant;
  userId: string;
  now: number;
  orderKey: string | null;
  undo: PatchItem<string>[];
}): StoredEntry => ({
  id: e.id,
  key: e.key,
  op: e.op,
  input: e.input,
  attempts: 0,
  created_at: e.now,
  last_error: null,
  user_id: e.userId,
  variant: e.variant,
  undo: e.undo,
  order_key: e.orderKey === null ? `${e.op}#${e.id}` : `${e.op}:${e.orderKey}`,
  next_attempt: 0,
  backoff_ms: 0,
  offline: false,
});

/** Why a drain runs: `force` sends every entry now; `networkBack` those that failed offline. */
export type DrainReason = { force?: boolean; networkBack?: boolean };

const byAge = (a: StoredEntry, b: StoredEntry) =>
  a.created_at - b.created_at || a.id.localeCompare(b.id);

/** `order_key` as stored by this build, or the op (one queue per op) for an older record. */
export const orderKeyOf = (entry: StoredEntry) => entry.order_key ?? entry.op;

/** The user's entries, oldest first, grouped by order key (each group oldest first). */
export function groupsOf(all: StoredEntry[], userId: string): Map<string, StoredEntry[]> {
  const groups = new Map<string, StoredEntry[]>();
  for (const entry of all.filter((e) => e.user_id === userId).sort(byAge)) {
    const key = orderKeyOf(entry);
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  return groups;
}

export const isDue = (entry: StoredEntry, now: number, reason: DrainReason) =>
  Boolean(reason.force) ||
  (entry.next_attempt ?? 0) <= now ||
  (Boolean(reason.networkBack) && entry.offline === true);

/**
 * How long a 429 asks the entry to wait: its Retry-After, kept within 1 s and an hour; null
 * when it gave none (the entry then backs off as after any failure).
 */
export const retryAfterOf = (error: unknown): number | null =>
  isRateLimited(error) && error.retryAfterMs !== undefined
    ? Math.min(Math.max(error.retryAfterMs, RETRY_AFTER_MIN_MS), RETRY_AFTER_MAX_MS)
    : null;

/**
 * The entry after a failed attempt: waits 5 s, then twice as long each time, up to 300 s; or,
 * answered 429 with a Retry-After, as long as the server asked (retryAfterOf), its backoff
 * left as it was (the server said when, so the wait does not grow).
 */
export function backedOff(entry: StoredEntry, error: unknown, now: number): StoredEntry {
  const told = retryAfterOf(error);
  const backoff =
    told !== null
      ? (entry.backoff_ms ?? 0)
      : entry.backoff_ms
        ? Math.min(entry.backoff_ms * 2, BACKOFF_MAX_MS)
        : BACKOFF_START_MS;
  return {
    ...entry,
    last_error: messageOf(error),
    backoff_ms: backoff,
    next_attempt: now + (told ?? backoff),
    offline: isNetworkError(error),
    rate_limited: isRateLimited(error),
  };
}

/**
 * 4xx other than 401/403 and 429: the server looked at the mutation and said no. A 429 is not
 * a no but "not now": the entry is kept and sent again when the server said (backedOff).
 */
export const isRejection = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 403 &&
  error.status !== 429;

export const isServerError = (error: unknown) => error instanceof ApiError && error.status >= 500;

/** The contract's view of an entry (what 'outbox.list' answers). */
export const publicEntry = ({
  id,
  key,
  op,
  input,
  attempts,
  created_at,
  last_error,
}: StoredEntry): OutboxEntry => ({ id, key, op, input, attempts, created_at, last_error });
