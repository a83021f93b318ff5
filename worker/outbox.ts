import type { OutboxEntry } from '../contract/sync';
import type { Variant, WorkerEvent } from '../contract/worker-api';
import type { ApiClient } from './api-client';
import type { Clock, LockManagerLike } from './deps';
import type { Changes, Mirror } from './mirror';
import {
  groupsOf,
  isDue,
  newEntry,
  publicEntry,
  type DrainReason,
  type StoredEntry,
} from './outbox-entries';
import { createGroupSender } from './outbox-groups';
import { createEntrySender } from './outbox-send';
import type { RegisteredMutation } from './registry-build';
import type { DomainContext } from './registry';
import type { Owner } from './session';

export type Outbox = {
  /** Stores the entry with its optimistic effect, then sends it; see createOutbox. */
  enqueue(op: string, input: unknown, variant: Variant): Promise<unknown>;
  drain(reason?: DrainReason): Promise<{ sent: number; pending: number }>;
  /** The server answered (or a tab is back online): send what failed for want of a network. */
  networkBack(): void;
  list(): Promise<OutboxEntry[]>;
  pending(): Promise<number>;
  /** Entries of users other than `userId` can never be sent: drop them. */
  keepOnly(userId: string): Promise<void>;
  close(): void;
};

export { OUTBOX_LOCK_PREFIX } from './outbox-groups';

/**
 * The outbox: every mutation is written here, with its idempotency key, and applied to the
 * mirror before it is sent, in one IndexedDB transaction. Entries with the same order key
 * (mutation.orderKey) go one at a time, oldest first; groups are independent, so one entry
 * backing off (5 s doubling to 300 s, kept on the entry) never holds back another group. The
 * server's answer confirms an entry (removed, answer stored) or rejects it (mirror rolled back,
 * toast); a 429 is "later", not "no": the entry waits for its Retry-After (outbox-entries.ts).
 * A failed entry is sent again when its backoff ends, when the network returns (any answer
 * from the server, or a tab saying it is online) if it failed offline, or on
 * 'outbox.drain'. The key is reused by every attempt and every worker instance, so the server
 * applies each entry exactly once.
 */
export function createOutbox(deps: {
  mirror: Promise<Mirror<string>>;
  client: ApiClient;
  clock: Clock;
  locks: LockManagerLike;
  randomId: () => string;
  mutations: ReadonlyMap<string, RegisteredMutation>;
  /** What a domain's optimistic and deferred parts run with. */
  context: DomainContext;
  /** The signed-in session: only its user's entries are sent, while it lasts. */
  owner: () => Owner | null;
  emit: (event: WorkerEvent) => void;
  announce: (changes: Changes<string>) => void;
  /** After a confirmation (the change feed has something new). */
  confirmed: () => void;
  track: (work: Promise<unknown>) => void;
}): Outbox {
  let timer: { id: unknown; at: number } | null = null;
  let waiting = 0;
  let closed = false;
  let networkDrain: Promise<void> | null = null;
  let networkAgain = false;

  const all = async () => (await deps.mirror).getAll<StoredEntry>('outbox');
  const mine = async (user = deps.owner()?.user_id ?? null) =>
    user === null ? [] : [...groupsOf(await all(), user).values()].flat();
  const pending = async () => (await mine()).length;
  const still = (owner: Owner) => deps.owner()?.session_id === owner.session_id;
  const { wait, defer, sendOne } = createEntrySender({ ...deps, still });
  const groups = createGroupSender({
    all,
    locks: deps.locks,
    now: () => deps.clock.now(),
    still,
    sendOne,
    settled: (owner) => settle(owner, null),
    track: deps.track,
  });

  /**
   * After sends: answers whoever waits behind a backoff or a lock (among `seen`, the entries
   * the drain looked at; all when null), wakes for the next backoff, tells the tabs the count.
   */
  const settle = async (owner: Owner | null, seen: Set<string> | null) => {
    const now = deps.clock.now();
    const left = owner ? groupsOf(await all(), owner.user_id) : new Map<string, StoredEntry[]>();
    let wake = Infinity;
    waiting = 0;
    for (const [key, group] of left) {
      waiting += group.length;
      if (groups.running(key)) continue;
      for (const entry of group) if (!seen || seen.has(entry.id)) await defer(entry);
      const at = group[0].next_attempt ?? 0;
      if (at > now && !groups.queued(key)) wake = Math.min(wake, at);
    }
    if (owner === null) for (const entry of await all()) await defer(entry);
    schedule(wake);
    deps.emit({ type: 'outbox', pending: waiting });
  };

  const schedule = (at: number) => {
    if (closed || at === Infinity || (timer && timer.at <= at)) return;
    if (timer) deps.clock.clearTimeout(timer.id);
    const id = deps.clock.setTimeout(
      () => {
        timer = null;
        deps.track(drain());
      },
      Math.max(0, at - deps.clock.now()),
    );
    timer = { id, at };
  };

  async function drain(reason: DrainReason = {}) {
    const owner = closed ? null : deps.owner();
    const runs: Promise<number>[] = [];
    const seen = new Set<string>();
    if (owner) {
      const now = deps.clock.now();
      for (const [key, group] of groupsOf(await all(), owner.user_id)) {
        for (const entry of group) seen.add(entry.id);
        const running = groups.running(key);
        if (running) {
          groups.touch(key);
          runs.push(running);
        } else if (isDue(group[0], now, reason)) {
          runs.push(groups.start(key, owner, reason));
        }
      }
    }
    const sent = (await Promise.all(runs)).reduce((a, b) => a + b, 0);
    await settle(owner, seen);
    return { sent, pending: waiting };
  }

  return {
    async enqueue(name, input, variant) {
      const op = deps.mutations.get(name);
      if (!op) throw new Error(`Outbox: no mutation named "${name}"`);
      const owner = deps.owner();
      if (!owner) throw new Error(`${name}: not signed in`);
      const mirror = await deps.mirror;
      const ctx = deps.context;
      const patch = (await op.mutation.optimistic?.(ctx, input)) ?? [];
      const entry = newEntry({
        id: deps.randomId(),
        key: deps.randomId(),
        op: name,
        input,
        variant,
        userId: owner.user_id,
        now: deps.clock.now(),
        orderKey: op.mutation.orderKey ? op.mutation.orderKey(input) : '',
        undo: await mirror.snapshot(patch),
      });
      // The entry and its optimistic effect land together, before anything is sent.
      const changes = await mirror.apply(
        [{ store: 'outbox', key: entry.id, value: entry }, ...patch],
        owner.guard,
      );
      if (!changes) throw new Error(`${name}: the session ended before the change was saved`);
      deps.announce(changes);
      const outcome = wait(entry.id);
      deps.track(drain());
      return outcome;
    },
    drain(reason = { force: true }) {
      if (timer) deps.clock.clearTimeout(timer.id);
      timer = null;
      return drain(reason);
    },
    networkBack() {
      if (closed || waiting === 0) return;
      // A burst of answers makes one drain, and one more if any came while it ran. Only
      // entries that failed offline become due: one the server failed (5xx) keeps its backoff,
      // so a drain whose sends all fail answers nothing new and nothing loops.
      if (networkDrain) {
        networkAgain = true;
        return;
      }
      networkDrain = (async () => {
        do {
          networkAgain = false;
          await drain({ networkBack: true });
        } while (networkAgain && waiting > 0 && !closed);
      })().finally(() => {
        networkDrain = null;
      });
      deps.track(networkDrain);
    },
    list: async () => (await mine()).map(publicEntry),
    pending,
    async keepOnly(userId) {
      const stale = (await all()).filter((e) => e.user_id !== userId);
      await (await deps.mirror).write(stale.map((e) => ({ store: 'outbox', key: e.id })));
    },
    close() {
      closed = true;
      groups.close();
      if (timer) deps.clock.clearTimeout(timer.id);
      timer = null;
    },
  };
}
