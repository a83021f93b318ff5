import type { WorkerEvent } from '../contract/worker-api';
import { messageOf, type ApiClient } from './api-client';
import { changeDelayedMessage } from './api-errors';
import type { Clock } from './deps';
import type { Changes, Mirror, PatchItem } from './mirror';
import { sendMutation } from './mutations';
import {
  backedOff,
  isRejection,
  isServerError,
  MAX_ATTEMPTS,
  type StoredEntry,
} from './outbox-entries';
import type { RegisteredMutation } from './registry-build';
import type { DomainContext } from './registry';
import type { Owner } from './session';

type Waiter = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/** Sends single entries and answers their callers (createEntrySender). */
export type EntrySender = ReturnType<typeof createEntrySender>;

/**
 * One outbox entry's trip to the server, and the callers waiting for it: the server's answer
 * confirms it (removed, its writes stored), a rejection rolls the mirror back (toast), any
 * other failure backs it off; a caller whose entry waits gets the optimistic answer.
 */
export function createEntrySender(deps: {
  mirror: Promise<Mirror<string>>;
  client: ApiClient;
  clock: Clock;
  mutations: ReadonlyMap<string, RegisteredMutation>;
  context: DomainContext;
  emit: (event: WorkerEvent) => void;
  announce: (changes: Changes<string>) => void;
  confirmed: () => void;
  /** Whether `owner` is still the session. */
  still: (owner: Owner) => boolean;
}) {
  const waiters = new Map<string, Waiter>();

  const registered = (op: string) => deps.mutations.get(op);
  const settleWaiter = (id: string) => {
    const waiter = waiters.get(id);
    waiters.delete(id);
    return waiter;
  };

  /** The entry waits (for the network, a backoff, a lock): its caller gets the optimistic answer. */
  const defer = async (entry: StoredEntry) => {
    const waiter = settleWaiter(entry.id);
    const op = registered(entry.op);
    if (!waiter) return;
    try {
      waiter.resolve(op && (await op.mutation.deferred?.(deps.context, entry.input)));
    } catch (error) {
      waiter.reject(error);
    }
  };

  const rollBack = async (entry: StoredEntry, error: unknown, owner: Owner) => {
    const mirror = await deps.mirror;
    const remove: PatchItem<string> = { store: 'outbox', key: entry.id };
    // The undo goes only into the mirror of the session that made the change.
    const changes = await mirror.apply([...entry.undo, remove], owner.guard);
    if (changes) deps.announce(changes);
    else await mirror.write([remove]);
    deps.emit({ type: 'toast', kind: 'error', message: messageOf(error) });
    settleWaiter(entry.id)?.reject(error);
  };

  /** 'sent' | 'rejected' | 'failed' (backing off) | 'moved' (the session changed). */
  const sendOne = async (entry: StoredEntry, owner: Owner) => {
    const mirror = await deps.mirror;
    const op = registered(entry.op);
    if (!op) {
      // Written by a build that knew this op; this one cannot send it, and it must not block.
      await mirror.write([{ store: 'outbox', key: entry.id }]);
      settleWaiter(entry.id)?.reject(new Error(`Outbox: no mutation named "${entry.op}"`));
      return 'rejected';
    }
    const attempt = { ...entry, attempts: entry.attempts + 1 };
    await mirror.write([{ store: 'outbox', key: entry.id, value: attempt }]);
    // Checked right before the call, which takes the session's token at once.
    if (!deps.still(owner)) return 'moved';
    let result: unknown;
    try {
      const { mutation } = op;
      const body = mutation.body ? mutation.body(entry.input) : entry.input;
      result = await sendMutation(deps.client, op.endpoint, body, {
        idempotencyKey: entry.key,
        variant: entry.variant,
        params: mutation.params?.(entry.input),
      });
    } catch (error) {
      if (isRejection(error) || (attempt.attempts >= MAX_ATTEMPTS && isServerError(error))) {
        await rollBack(entry, error, owner);
        return 'rejected';
      }
      const now = deps.clock.now();
      const later = backedOff(attempt, error, now);
      await mirror.write([{ store: 'outbox', key: entry.id, value: later }]);
      // Told once per run of refusals: the change is kept, and when it goes.
      if (later.rate_limited && !entry.rate_limited) {
        const message = changeDelayedMessage(later.next_attempt - now);
        deps.emit({ type: 'toast', kind: 'blank', message });
      }
      return 'failed';
    }
    await mirror.write([{ store: 'outbox', key: entry.id }]);
    const writes = op.mutation.confirm?.(entry.input, result) ?? [];
    const changes = writes.length ? await mirror.apply(writes, owner.guard) : null;
    if (changes) deps.announce(changes);
    settleWaiter(entry.id)?.resolve(op.mutation.output?.(result));
    deps.confirmed();
    return 'sent';
  };

  /** The caller's answer for entry `id`: the server's, or the optimistic one while it waits. */
  const wait = (id: string) =>
    new Promise<unknown>((resolve, reject) => waiters.set(id, { resolve, reject }));

  return { wait, defer, sendOne };
}
