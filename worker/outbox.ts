import type { EndpointName } from '../contract/endpoints';
import type { OutboxEntry, Variant, WorkerEvent } from '../contract/worker-api';
import { ApiError, messageOf, type ApiClient } from './api-client';
import type { Clock, LockManagerLike } from './deps';
import type { Mirror, PatchItem } from './mirror';
import type { Owner } from './session';

/** How one mutation op reaches the server and shows in the mirror before it does. */
export type OutboxOp = {
  endpoint: EndpointName;
  /** Mirror writes that show the change at once (undone if the server rejects it). */
  optimistic?(input: unknown): Promise<PatchItem[]> | PatchItem[];
  /** The server confirmed: the mirror writes of its answer (announced if they change it). */
  confirmedWrites?(input: unknown, result: unknown): PatchItem[];
  /** The op's output once confirmed (undefined by default). */
  output?(result: unknown): unknown;
  /** The op's output while the send waits for the network. */
  deferred?(input: unknown): Promise<unknown> | unknown;
  /** Logical stores announced to tabs when the mirror changes ('preferences', ...). */
  stores: string[];
};

/** An outbox record: the contract's entry plus what the worker needs to send or undo it. */
type StoredEntry = OutboxEntry & { user_id: string; variant: Variant; undo: PatchItem[] };

export type Outbox = {
  /** Stores the entry and applies it to the mirror, then sends it; see `enqueue` below. */
  enqueue(op: string, input: unknown, variant: Variant): Promise<unknown>;
  drain(): Promise<{ sent: number; pending: number }>;
  list(): Promise<OutboxEntry[]>;
  pending(): Promise<number>;
  /** Entries of users other than `userId` can never be sent: drop them. */
  keepOnly(userId: string): Promise<void>;
  close(): void;
};

export const OUTBOX_DRAIN_LOCK = 'outbox-drain';
const BACKOFF_START_MS = 5_000;
const BACKOFF_MAX_MS = 300_000;
/** A server that keeps failing (5xx) the same entry this often has rejected it. */
const MAX_ATTEMPTS = 8;

const byAge = (a: StoredEntry, b: StoredEntry) =>
  a.created_at - b.created_at || a.id.localeCompare(b.id);

/** 4xx other than 401/403: the server looked at the mutation and said no. */
const isRejection = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 403;

/**
 * The outbox: every mutation is written here, with its idempotency key, and applied to the
 * mirror before it is sent, in one IndexedDB transaction. Sends go one at a time, oldest
 * first. The server's answer confirms an entry (removed, answer stored) or rejects it (mirror
 * rolled back, toast); a network failure keeps it for the next drain: on start, when the
 * network returns, after a backoff, or on 'outbox.drain'. The key is reused by every attempt
 * and every worker instance, so the server applies each entry exactly once.
 */
export function createOutbox(deps: {
  mirror: Promise<Mirror>;
  client: ApiClient;
  clock: Clock;
  locks: LockManagerLike;
  randomId: () => string;
  ops: Record<string, OutboxOp>;
  /** The signed-in session: only its user's entries are sent, while it lasts. */
  owner: () => Owner | null;
  emit: (event: WorkerEvent) => void;
  /** Logical stores changed: tell the tabs. */
  announce: (stores: string[]) => void;
  /** After a confirmation (the change feed has something new). */
  confirmed: () => void;
  track: (work: Promise<unknown>) => void;
}): Outbox {
  type Waiter = { resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const waiters = new Map<string, Waiter>();
  let running: Promise<{ sent: number; pending: number }> | null = null;
  let again = false;
  let backoff = BACKOFF_START_MS;
  let retryTimer: unknown = null;
  let closed = false;
  /** A wait for the drain lock another worker instance holds (see `pass`). */
  let queued: AbortController | null = null;

  const opOf = (name: string) => {
    const op = deps.ops[name];
    if (!op) throw new Error(`Outbox: no mutation named "${name}"`);
    return op;
  };

  const mine = async (user = deps.owner()?.user_id ?? null) => {
    const all = await (await deps.mirror).getAll<StoredEntry>('outbox');
    return all.filter((e) => e.user_id === user).sort(byAge);
  };
  const still = (owner: Owner) => deps.owner()?.session_id === owner.session_id;
  const pending = async () => (await mine()).length;
  const announceCount = async () => deps.emit({ type: 'outbox', pending: await pending() });

  // The entry waits for the network: its caller gets the optimistic answer now.
  const defer = async (entry: StoredEntry) => {
    const waiter = waiters.get(entry.id);
    if (!waiter) return;
    waiters.delete(entry.id);
    try {
      waiter.resolve(await deps.ops[entry.op]?.deferred?.(entry.input));
    } catch (error) {
      waiter.reject(error);
    }
  };
  const deferAll = async () => {
    const all = await (await deps.mirror).getAll<StoredEntry>('outbox');
    for (const entry of all) await defer(entry);
  };

  const scheduleRetry = () => {
    if (closed || retryTimer !== null) return;
    retryTimer = deps.clock.setTimeout(() => {
      retryTimer = null;
      deps.track(drain());
    }, backoff);
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  };

  const rollBack = async (entry: StoredEntry, error: unknown, owner: Owner) => {
    const mirror = await deps.mirror;
    const remove: PatchItem = { store: 'outbox', key: entry.id };
    // The undo goes only into the mirror of the session that made the change.
    if (!(await mirror.write([...entry.undo, remove], owner.guard))) await mirror.write([remove]);
    deps.announce(opOf(entry.op).stores);
    deps.emit({ type: 'toast', kind: 'error', message: messageOf(error) });
    const waiter = waiters.get(entry.id);
    waiters.delete(entry.id);
    waiter?.reject(error);
  };

  /**
   * 'sent' | 'rejected' | 'stop' (keep it and everything after it for later) | 'moved' (the
   * session changed: the next user's token must not carry this user's change).
   */
  const sendOne = async (entry: StoredEntry, owner: Owner) => {
    const mirror = await deps.mirror;
    const op = deps.ops[entry.op];
    if (!op) {
      // Written by a build that knew this op; this one cannot send it, and it must not block.
      await mirror.write([{ store: 'outbox', key: entry.id }]);
      return 'rejected';
    }
    // Another worker instance over the same IndexedDB may have sent it meanwhile.
    if (!(await mirror.get('outbox', entry.id))) return 'sent';
    const attempt = { ...entry, attempts: entry.attempts + 1 };
    await mirror.write([{ store: 'outbox', key: entry.id, value: attempt }]);
    // Checked right before the call, which takes the session's token at once.
    if (!still(owner)) return 'moved';
    let result: unknown;
    try {
      result = await deps.client.call(op.endpoint, {
        body: entry.input as never,
        idempotencyKey: entry.key,
        variant: entry.variant,
        background: true,
      });
    } catch (error) {
      if (isRejection(error) || (attempt.attempts >= MAX_ATTEMPTS && isServerError(error))) {
        await rollBack(entry, error, owner);
        return 'rejected';
      }
      await mirror.write([
        { store: 'outbox', key: entry.id, value: { ...attempt, last_error: messageOf(error) } },
      ]);
      return 'stop';
    }
    await mirror.write([{ store: 'outbox', key: entry.id }]);
    const writes = op.confirmedWrites?.(entry.input, result) ?? [];
    if (await mirror.apply(writes, owner.guard)) deps.announce(op.stores);
    const waiter = waiters.get(entry.id);
    waiters.delete(entry.id);
    waiter?.resolve(op.output?.(result));
    deps.confirmed();
    return 'sent';
  };

  /** Sends the session's entries, oldest first; runs while holding the drain lock. */
  const sendAll = async (owner: Owner) => {
    let sent = 0;
    for (const entry of await mine(owner.user_id)) {
      if (closed || !still(owner)) break;
      const outcome = await sendOne(entry, owner);
      if (outcome === 'sent') sent += 1;
      if (outcome === 'moved') break;
      if (outcome === 'stop') {
        await deferAll();
        scheduleRetry();
        return sent;
      }
    }
    backoff = BACKOFF_START_MS;
    return sent;
  };

  /**
   * Another worker instance holds the drain lock; it read its list before our entry existed,
   * so wait for the lock (in the background) and send then.
   */
  const queueBehind = () => {
    if (queued || closed) return;
    const controller = new AbortController();
    queued = controller;
    const waited = deps.locks
      .request(OUTBOX_DRAIN_LOCK, { signal: controller.signal }, async () => {
        if (queued === controller) queued = null;
        const owner = deps.owner();
        if (closed || !owner) return;
        await sendAll(owner);
        await announceCount();
      })
      .catch((error: unknown) => {
        if (queued === controller) queued = null;
        // Aborted: the worker is closing.
        if (!(error instanceof Error && error.name === 'AbortError')) throw error;
      });
    deps.track(waited);
  };

  const pass = async () => {
    let sent = 0;
    const owner = deps.owner();
    if (!owner) {
      await deferAll();
      return sent;
    }
    await deps.locks.request(OUTBOX_DRAIN_LOCK, { ifAvailable: true }, async (lock) => {
      if (lock) {
        sent = await sendAll(owner);
        return;
      }
      // Another worker instance is draining: answer optimistically, send once it is done.
      await deferAll();
      queueBehind();
    });
    await announceCount();
    return sent;
  };

  function drain() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let sent = 0;
      do {
        again = false;
        sent += await pass();
      } while (again && !closed);
      return { sent, pending: await pending() };
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    async enqueue(name, input, variant) {
      const op = opOf(name);
      const owner = deps.owner();
      if (!owner) throw new Error(`${name}: not signed in`);
      const mirror = await deps.mirror;
      const patch = (await op.optimistic?.(input)) ?? [];
      const entry: StoredEntry = {
        id: deps.randomId(),
        key: deps.randomId(),
        op: name,
        input,
        attempts: 0,
        created_at: deps.clock.now(),
        last_error: null,
        user_id: owner.user_id,
        variant,
        undo: await mirror.snapshot(patch),
      };
      // The entry and its optimistic effect land together, before anything is sent.
      const saved = await mirror.write(
        [{ store: 'outbox', key: entry.id, value: entry }, ...patch],
        owner.guard,
      );
      if (!saved) throw new Error(`${name}: the session ended before the change was saved`);
      if (patch.length) deps.announce(op.stores);
      const outcome = new Promise((resolve, reject) => waiters.set(entry.id, { resolve, reject }));
      await announceCount();
      if (retryTimer !== null) {
        // Sends are held back by a backoff: do not jump the queue, answer optimistically.
        await defer(entry);
      } else {
        deps.track(drain());
      }
      return outcome;
    },
    drain: () => {
      if (retryTimer !== null) deps.clock.clearTimeout(retryTimer);
      retryTimer = null;
      return drain();
    },
    async list() {
      return (await mine()).map(({ id, key, op, input, attempts, created_at, last_error }) => ({
        id,
        key,
        op,
        input,
        attempts,
        created_at,
        last_error,
      }));
    },
    pending,
    async keepOnly(userId) {
      const mirror = await deps.mirror;
      const all = await mirror.getAll<StoredEntry>('outbox');
      const stale = all.filter((e) => e.user_id !== userId);
      await mirror.write(stale.map((e) => ({ store: 'outbox' as const, key: e.id })));
    },
    close() {
      closed = true;
      queued?.abort();
      queued = null;
      if (retryTimer !== null) deps.clock.clearTimeout(retryTimer);
      retryTimer = null;
    },
  };
}

const isServerError = (error: unknown) => error instanceof ApiError && error.status >= 500;
