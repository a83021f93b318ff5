import * as Comlink from 'comlink';
import type { Variant, WorkerEvent } from '../contract/worker-api';
import { messageOf } from './api-client';
import { DEFAULT_VARIANT, type Clock, type LockManagerLike } from './deps';

export type TabListener = (event: WorkerEvent) => unknown;

/** One connected port (or in-process caller); a tab once it said hello. */
export type Connection = {
  readonly key: number;
  tabId: string | null;
  variant: Variant;
  visible: boolean;
  path: string;
  listener: TabListener | null;
  watch: AbortController | null;
  /** Frees what serves the connection (its port); run once it is dropped. */
  release: (() => void) | null;
  /** Until hello: a connection that never says it is a tab is dropped. */
  helloTimer: unknown;
};

export type TabRegistry = {
  /** A new connection; `release` frees its port once it is dropped (a port waits for hello). */
  open(release?: () => void): Connection;
  hello(
    conn: Connection,
    info: { tabId: string; variant: Variant; visible: boolean; path: string },
  ): void;
  subscribe(conn: Connection, listener: TabListener): void;
  setVisible(conn: Connection, visible: boolean): void;
  setPath(conn: Connection, path: string): void;
  /** The tab is gone: no more events to it, its port closed. */
  drop(conn: Connection): void;
  /** The tab says it is leaving: dropped, its port closed once the answer has gone out. */
  bye(conn: Connection): void;
  anyVisible(): boolean;
  /** The variant background calls carry: a visible tab's, else the default. */
  variant(): Variant;
  tabIds(): string[];
  /** To every subscribed connection, optionally except one tab. */
  broadcast(event: WorkerEvent, exceptTab?: string | null): void;
  /**
   * To one connection (the tab that asked for it, e.g. a chat it watches); false once that
   * connection is gone (dropped, said bye, or the worker closed), so the caller forgets it.
   */
  send(conn: Connection, event: WorkerEvent): boolean;
  close(): void;
};

/**
 * The tabs the worker serves. A tab holds the Web Lock `tab:<id>` while it lives; the worker
 * asks for the same lock, which it is granted only once the tab is gone, and then forgets it
 * (and closes its port), so it never streams into the void. That lock (or tab.bye) is the only
 * sign of death: a dead tab's comlink call never settles, so a listener that throws or rejects
 * is a live tab with a bug, and keeps its events (the failure is logged).
 */
export function createTabRegistry(deps: {
  locks: LockManagerLike;
  clock: Clock;
  /** A connection opened with a port that says no hello within this is dropped. */
  helloTimeoutMs: number;
  warn: (message: string) => void;
  /** Called when the set of visible tabs may have changed. */
  onChange: () => void;
}): TabRegistry {
  const connections = new Set<Connection>();
  let nextKey = 1;

  const stopHelloTimer = (conn: Connection) => {
    if (conn.helloTimer !== null) deps.clock.clearTimeout(conn.helloTimer);
    conn.helloTimer = null;
  };

  const forget = (conn: Connection) => {
    stopHelloTimer(conn);
    if (!connections.delete(conn)) return null;
    conn.watch?.abort();
    conn.watch = null;
    releaseListener(conn.listener);
    conn.listener = null;
    const free = conn.release;
    conn.release = null;
    deps.onChange();
    return free;
  };

  const drop = (conn: Connection) => {
    forget(conn)?.();
  };

  const watch = (conn: Connection, tabId: string) => {
    conn.watch?.abort();
    const controller = new AbortController();
    conn.watch = controller;
    deps.locks
      .request(`tab:${tabId}`, { signal: controller.signal }, () => {
        if (conn.watch === controller) drop(conn);
      })
      .catch(() => {
        // Aborted: the tab said bye, reconnected or the worker closed.
      });
  };

  const deliver = (conn: Connection, event: WorkerEvent) => {
    const listener = conn.listener;
    if (!listener) return;
    const complain = (error: unknown) =>
      deps.warn(
        `workspace: tab ${conn.tabId ?? '(before hello)'} failed to handle a "${event.type}" event: ${messageOf(error)}`,
      );
    try {
      const result = listener(event);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, complain);
      }
    } catch (error) {
      complain(error);
    }
  };

  return {
    open(release) {
      const conn: Connection = {
        key: nextKey++,
        tabId: null,
        variant: DEFAULT_VARIANT,
        visible: false,
        path: '/',
        listener: null,
        watch: null,
        release: release ?? null,
        helloTimer: null,
      };
      connections.add(conn);
      if (release) {
        conn.helloTimer = deps.clock.setTimeout(() => {
          conn.helloTimer = null;
          if (conn.tabId === null) drop(conn);
        }, deps.helloTimeoutMs);
      }
      return conn;
    },
    hello(conn, info) {
      if (!connections.has(conn)) connections.add(conn);
      stopHelloTimer(conn);
      // A tab that reconnects under the same id replaces its old connection.
      for (const other of connections) {
        if (other !== conn && other.tabId === info.tabId) drop(other);
      }
      conn.tabId = info.tabId;
      conn.variant = info.variant;
      conn.visible = info.visible;
      conn.path = info.path;
      watch(conn, info.tabId);
      deps.onChange();
    },
    subscribe(conn, listener) {
      if (!connections.has(conn)) connections.add(conn);
      if (conn.listener !== listener) releaseListener(conn.listener);
      conn.listener = listener;
    },
    setVisible(conn, visible) {
      if (conn.visible === visible) return;
      conn.visible = visible;
      deps.onChange();
    },
    setPath(conn, path) {
      conn.path = path;
    },
    drop,
    bye(conn) {
      const free = forget(conn);
      // After this op's answer has been posted on the port (comlink answers a tick later).
      if (free) deps.clock.setTimeout(free, 0);
    },
    anyVisible: () => [...connections].some((c) => c.tabId !== null && c.visible),
    variant: () =>
      [...connections].find((c) => c.tabId !== null && c.visible)?.variant ?? DEFAULT_VARIANT,
    tabIds: () => [...connections].flatMap((c) => (c.tabId ? [c.tabId] : [])),
    broadcast(event, exceptTab) {
      for (const conn of [...connections]) {
        if (exceptTab && conn.tabId === exceptTab) continue;
        deliver(conn, event);
      }
    },
    send(conn, event) {
      if (!connections.has(conn)) return false;
      deliver(conn, event);
      return true;
    },
    close() {
      for (const conn of [...connections]) {
        stopHelloTimer(conn);
        conn.watch?.abort();
        conn.watch = null;
        releaseListener(conn.listener);
        conn.listener = null;
      }
      connections.clear();
    },
  };
}

/** Frees the port behind a comlink proxy listener (a plain function has nothing to free). */
function releaseListener(listener: TabListener | null) {
  if (!listener) return;
  const free = (listener as unknown as Record<symbol, unknown>)[Comlink.releaseProxy];
  if (typeof free !== 'function') return;
  try {
    void Promise.resolve(free.call(listener)).catch(() => {});
  } catch {
    // Already released.
  }
}
