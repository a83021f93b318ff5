import type { LockManagerLike } from './deps';
import { groupsOf, isDue, type DrainReason, type StoredEntry } from './outbox-entries';
import type { EntrySender } from './outbox-send';
import type { Owner } from './session';

/** Held while one worker instance sends a group's entries (`${prefix}:${user}:${order key}`). */
export const OUTBOX_LOCK_PREFIX = 'outbox';

export type GroupSender = {
  /** A group being sent now, as the count it will have sent. */
  running(key: string): Promise<number> | undefined;
  /** A group's lock is awaited behind another worker instance. */
  queued(key: string): boolean;
  /** Entries came to a running group: it reads its head again before it stops. */
  touch(key: string): void;
  /** Sends a group's due entries in order under its lock (or queues behind its holder). */
  start(key: string, owner: Owner, reason: DrainReason): Promise<number>;
  /** Stops waiting for locks (the worker closes). */
  close(): void;
};

/**
 * The outbox's groups (entries sharing an order key): each sent one entry at a time, oldest
 * first, under a lock named for the user and key, so two worker instances never send a group
 * at once. A group whose lock another instance holds is queued behind it and sent when it is
 * released (the holder read its entries before ours existed).
 */
export function createGroupSender(deps: {
  all: () => Promise<StoredEntry[]>;
  locks: LockManagerLike;
  now: () => number;
  /** The session still signed in is `owner`'s. */
  still: (owner: Owner) => boolean;
  sendOne: EntrySender['sendOne'];
  /** After a queued group was sent: answer its waiters and tell the tabs. */
  settled: (owner: Owner) => Promise<void>;
  track: (work: Promise<unknown>) => void;
}): GroupSender {
  /** Order keys a chain is sending now; `dirty`: entries were added to them meanwhile. */
  const chains = new Map<string, Promise<number>>();
  const dirty = new Set<string>();
  /** Waits for a group lock another worker instance holds, aborted on close. */
  const queued = new Map<string, AbortController>();
  let closed = false;

  /** Sends one group's entries in order while they are due; holds the group's lock. */
  const sendGroup = async (key: string, owner: Owner, reason: DrainReason) => {
    let sent = 0;
    try {
      for (;;) {
        dirty.delete(key);
        if (closed || !deps.still(owner)) break;
        const head = groupsOf(await deps.all(), owner.user_id).get(key)?.[0];
        if (!head || !isDue(head, deps.now(), reason)) {
          if (dirty.has(key)) continue; // An entry came while the head was read.
          break;
        }
        const outcome = await deps.sendOne(head, owner);
        if (outcome === 'sent') sent += 1;
        else if (outcome !== 'rejected') break;
      }
    } finally {
      // Before this settles: a drain that starts after it sees no chain and starts its own.
      chains.delete(key);
    }
    return sent;
  };

  const lockName = (owner: Owner, key: string) => `${OUTBOX_LOCK_PREFIX}:${owner.user_id}:${key}`;

  /**
   * Another worker instance is sending this group; it read its entries before ours existed,
   * so wait for its lock (in the background) and send then.
   */
  const queueBehind = (key: string, owner: Owner, reason: DrainReason) => {
    if (queued.has(key) || closed) return;
    const controller = new AbortController();
    queued.set(key, controller);
    const waited = deps.locks
      .request(lockName(owner, key), { signal: controller.signal }, async () => {
        queued.delete(key);
        if (closed || chains.has(key)) return;
        const chain = sendGroup(key, owner, reason);
        chains.set(key, chain);
        await chain;
        await deps.settled(owner);
      })
      .catch((error: unknown) => {
        queued.delete(key);
        // Aborted: the worker is closing.
        if (!(error instanceof Error && error.name === 'AbortError')) throw error;
      });
    deps.track(waited);
  };

  return {
    running: (key) => chains.get(key),
    queued: (key) => queued.has(key),
    touch: (key) => void dirty.add(key),
    start(key, owner, reason) {
      const chain = deps.locks.request(lockName(owner, key), { ifAvailable: true }, (lock) => {
        if (lock) return sendGroup(key, owner, reason);
        queueBehind(key, owner, reason);
        return 0;
      });
      chains.set(key, chain);
      // sendGroup forgets its chain itself; one that never got the lock is forgotten here.
      const forget = () => {
        if (chains.get(key) === chain) chains.delete(key);
      };
      chain.then(forget, forget);
      return chain;
    },
    close() {
      closed = true;
      for (const controller of queued.values()) controller.abort();
      queued.clear();
    },
  };
}
