import { eventJson, readEventStream } from '../contract/event-stream';
import { LIVE_FALLBACK_PULL_MS, LiveEvent, SYNC_LIVE_PATH } from '../contract/sync';
import { ApiError, isAbortError, messageOf, type ApiClient } from './api-client';
import type { Clock, TimerId } from './deps';

export type LiveSync = {
  /** Keep the live connection while `active` (signed in and some tab visible); drop it else. */
  update(active: boolean): void;
  /** Whether the live connection is up now. */
  connected(): boolean;
  /** The server is back: connect at once if the connection is wanted and down (true if so). */
  now(): boolean;
  stop(): void;
};

export const LIVE_RETRY_START_MS = 1_000;
export const LIVE_RETRY_MAX_MS = 30_000;

/**
 * The live signal: one GET /sync/live (server-sent events) per worker while the session is
 * signed in and a tab is visible. Each event says the change sequence moved, and the worker
 * pulls the change feed, so every tab sees new documents without a reload. The first event
 * comes at once, so a reconnect also pulls what was missed. A dropped connection is retried
 * 1 s later, doubling to 30 s (back to 1 s once an event arrives), or after the server's
 * Retry-After when it refused (429) and asked for longer; while it is down, the change feed is
 * pulled every 15 s instead. When the worker sees the server come back (worker/connectivity.ts)
 * `now()` connects at once, whatever the wait; a connection that ends on its own is `lost`.
 */
export function createLiveSync(deps: {
  client: ApiClient;
  clock: Clock;
  /** Pull the change feed (concurrent pulls share one run). */
  pull: () => Promise<unknown>;
  /** The session's cancel signal: its end drops the connection. */
  signal: () => AbortSignal;
  track: (work: Promise<unknown>) => void;
  warn: (message: string) => void;
  /** A connection that was up ended without being dropped here: the server may be gone. */
  lost?: () => void;
}): LiveSync {
  let active = false;
  let up = false;
  let controller: AbortController | null = null;
  let retryMs = LIVE_RETRY_START_MS;
  let reconnect: TimerId | null = null;
  let fallback: TimerId | null = null;

  const clear = (id: TimerId | null) => {
    if (id !== null) deps.clock.clearTimeout(id);
    return null;
  };

  const pull = () =>
    deps.track(
      deps.pull().catch((error: unknown) => {
        if (!isAbortError(error)) throw error;
      }),
    );

  /** While the connection is down: a pull every LIVE_FALLBACK_PULL_MS. */
  const startFallback = () => {
    if (fallback !== null || !active) return;
    fallback = deps.clock.setTimeout(() => {
      fallback = null;
      if (!active || up) return;
      pull();
      startFallback();
    }, LIVE_FALLBACK_PULL_MS);
  };

  /** The server's Retry-After on a refusal (429: too many live connections for the user). */
  let told = 0;

  const scheduleReconnect = () => {
    if (!active || reconnect !== null) return;
    const wait = Math.max(retryMs, told);
    told = 0;
    retryMs = Math.min(retryMs * 2, LIVE_RETRY_MAX_MS);
    reconnect = deps.clock.setTimeout(() => {
      reconnect = null;
      connect();
    }, wait);
  };

  /** Every event of the stream that is a LiveEvent means the change sequence moved. */
  const read = async (body: ReadableStream<Uint8Array>, stop: AbortSignal) => {
    for await (const { data } of readEventStream(body, { signal: stop })) {
      if (!LiveEvent.safeParse(eventJson(data)).success) continue;
      retryMs = LIVE_RETRY_START_MS;
      pull();
    }
  };

  function connect() {
    if (!active || controller) return;
    const own = new AbortController();
    controller = own;
    const session = deps.signal();
    const stopOnSessionEnd = () => own.abort();
    session.addEventListener('abort', stopOnSessionEnd, { once: true });
    if (session.aborted) own.abort();
    const run = (async () => {
      try {
        const response = await deps.client.send(
          {
            method: 'get',
            path: SYNC_LIVE_PATH,
            auth: true,
            background: true,
            headers: { accept: 'text/event-stream' },
          },
          { signal: own.signal },
        );
        if (!response.body) throw new Error('GET /sync/live answered with no body');
        up = true;
        fallback = clear(fallback);
        await read(response.body, own.signal);
        if (!own.signal.aborted) deps.lost?.();
      } catch (error) {
        if (!own.signal.aborted && !isAbortError(error)) {
          deps.warn(`live: the connection failed: ${messageOf(error)}`);
          if (error instanceof ApiError && error.retryAfterMs) told = error.retryAfterMs;
          if (up) deps.lost?.();
        }
      } finally {
        session.removeEventListener('abort', stopOnSessionEnd);
        up = false;
        if (controller === own) controller = null;
        if (active) {
          startFallback();
          scheduleReconnect();
        }
      }
    })();
    // Not tracked: it lasts as long as the session is visible (idle() waits for finite work).
    void run;
  }

  const drop = () => {
    controller?.abort();
    controller = null;
    reconnect = clear(reconnect);
    fallback = clear(fallback);
  };

  return {
    update(next) {
      if (next === active) return;
      active = next;
      if (active) {
        retryMs = LIVE_RETRY_START_MS;
        connect();
      } else drop();
    },
    connected: () => up,
    now() {
      if (!active || controller) return false;
      reconnect = clear(reconnect);
      retryMs = LIVE_RETRY_START_MS;
      told = 0;
      connect();
      return true;
    },
    stop() {
      active = false;
      drop();
    },
  };
}
