import type {
  BroadcastChannelFactory,
  BroadcastChannelLike,
  Clock,
  FetchLike,
  LockLike,
  LockManagerLike,
  LockOptions,
  RequestInitLike,
  ResponseLike,
  TimerId,
} from './deps';

/**
 * The one home of the worker's test doubles (tests, the headless harness, the CLI and the
 * bench share them). Each stands in for a browser capability of worker/deps.ts and behaves
 * like it where the worker depends on it.
 */

/** Lets promise chains and zero-delay callbacks that are already queued run. */
export const settle = async (rounds = 3) => {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
};

export type ManualClock = Clock & {
  /** Moves time forward, firing due timers in order (letting queued work run in between). */
  advance(ms: number): Promise<void>;
  /** Timers scheduled and not yet fired or cleared. */
  pendingTimers(): number;
};

export function createManualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const due = (limit: number) => {
    let best: [number, { at: number; fn: () => void }] | null = null;
    for (const entry of timers) {
      if (entry[1].at > limit) continue;
      if (!best || entry[1].at < best[1].at || (entry[1].at === best[1].at && entry[0] < best[0]))
        best = entry;
    }
    return best;
  };
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(id: TimerId) {
      timers.delete(id as number);
    },
    pendingTimers: () => timers.size,
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        await settle();
        const next = due(target);
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = target;
      await settle();
    },
  };
}

type Waiter = {
  grant: () => void;
  abort: () => void;
};

export type MemoryLockManager = LockManagerLike & {
  /** Names currently held. */
  held(): string[];
};

/**
 * Web Locks in memory: exclusive locks, granted in request order, released when the callback's
 * promise settles; `ifAvailable` gets null when held; an aborted waiter rejects with AbortError.
 * Share one instance between the tabs and workers of one "browser profile".
 */
export function createMemoryLocks(): MemoryLockManager {
  const holders = new Set<string>();
  const queues = new Map<string, Waiter[]>();

  const release = (name: string) => {
    holders.delete(name);
    const queue = queues.get(name);
    const next = queue?.shift();
    if (queue && queue.length === 0) queues.delete(name);
    next?.grant();
  };

  function request<T>(
    name: string,
    options: LockOptions,
    callback: (lock: LockLike | null) => Promise<T> | T,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        holders.add(name);
        Promise.resolve()
          .then(() => callback({ name }))
          .then(resolve, reject)
          .finally(() => release(name));
      };
      if (options.signal?.aborted) {
        reject(abortError());
        return;
      }
      if (!holders.has(name)) {
        run();
        return;
      }
      if (options.ifAvailable) {
        Promise.resolve()
          .then(() => callback(null))
          .then(resolve, reject);
        return;
      }
      const waiter: Waiter = {
        grant: () => {
          options.signal?.removeEventListener('abort', waiter.abort);
          run();
        },
        abort: () => {
          const queue = queues.get(name) ?? [];
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(abortError());
        },
      };
      options.signal?.addEventListener('abort', waiter.abort, { once: true });
      const queue = queues.get(name) ?? [];
      queue.push(waiter);
      queues.set(name, queue);
    });
  }

  return { request, held: () => [...holders] };
}

const abortError = () => {
  const error = new Error('The lock request was aborted');
  error.name = 'AbortError';
  return error;
};

/**
 * BroadcastChannel in memory: a message reaches every other open channel of the same name
 * (never the sender), asynchronously and as a structured clone, like the real one.
 */
export function createBroadcastHub(): { channel: BroadcastChannelFactory } {
  const open = new Map<string, Set<MemoryChannel>>();
  type MemoryChannel = BroadcastChannelLike & { deliver(data: unknown): void };

  const channel = (name: string): BroadcastChannelLike => {
    const listeners = new Set<(event: { data: unknown }) => void>();
    let closed = false;
    const self: MemoryChannel = {
      postMessage(data) {
        if (closed) throw new Error(`BroadcastChannel "${name}" is closed`);
        const copy = structuredClone(data);
        for (const other of open.get(name) ?? []) {
          if (other !== self) setTimeout(() => other.deliver(copy), 0);
        }
      },
      addEventListener(_type, listener) {
        listeners.add(listener);
      },
      close() {
        closed = true;
        open.get(name)?.delete(self);
      },
      deliver(data) {
        if (closed) return;
        for (const listener of listeners) listener({ data });
      },
    };
    const peers = open.get(name) ?? new Set();
    peers.add(self);
    open.set(name, peers);
    return self;
  };
  return { channel };
}

/** One scripted answer: a status and JSON body, or a network failure. */
export type ScriptedReply =
  { status: number; body?: unknown } | { networkError: true; message?: string };

/** A request as the scripted fetch saw it; `body` is the text it sent, whatever its kind. */
export type RecordedRequest = Omit<RequestInitLike, 'body'> & {
  url: string;
  at: number;
  body?: string;
};

/** A Response of `text`, as fetch would answer it (a body only where the status allows one). */
export const responseOf = (status: number, text: string): ResponseLike =>
  new Response(text === '' ? null : text, { status });

/**
 * A fetch that answers from a script, in order, and records every request with the clock's
 * time, so a test reads the retry policy off `requests`. A raw body (an upload) is read to the
 * end, as a server would, before the answer.
 */
export function createScriptedFetch(
  script: ScriptedReply[] | ((request: RecordedRequest) => ScriptedReply),
  clock: Pick<Clock, 'now'> = { now: () => 0 },
): { fetch: FetchLike; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(script) ? [...script] : null;
  const fetch: FetchLike = async (url, { body, ...init }) => {
    const request: RecordedRequest = { ...init, url, at: clock.now() };
    if (typeof body === 'string') request.body = body;
    requests.push(request);
    if (body !== undefined && typeof body !== 'string') {
      request.body = await new Response(body).text();
    }
    const reply = queue
      ? queue.shift()
      : (script as (r: RecordedRequest) => ScriptedReply)(request);
    if (!reply) throw new Error(`scripted fetch: no reply left for ${init.method} ${url}`);
    if ('networkError' in reply) throw new TypeError(reply.message ?? 'fetch failed');
    return responseOf(reply.status, reply.body === undefined ? '' : JSON.stringify(reply.body));
  };
  return { fetch, requests };
}
