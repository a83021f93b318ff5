import * as Comlink from 'comlink';
import type { Variant, WorkerEvent } from '../contract/worker-api';
import { DEFAULT_VARIANT, type LockManagerLike } from './deps';

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
};

export type TabRegistry = {
  open(): Connection;
  hello(
    conn: Connection,
    info: { tabId: string; variant: Variant; visible: boolean; path: string },
  ): void;
  subscribe(conn: Connection, listener: TabListener): void;
  setVisible(conn: Connection, visible: boolean): void;
  setPath(conn: Connection, path: string): void;
  /** The tab is gone: no more events to it. */
  drop(conn: Connection): void;
  anyVisible(): boolean;
  /** The variant background calls carry: a visible tab's, else the default. */
  variant(): Variant;
  tabIds(): string[];
  /** To every subscribed connection, optionally except one tab. */
  broadcast(event: WorkerEvent, exceptTab?: string | null): void;
  close(): void;
};

/**
 * The tabs the worker serves. A tab holds the Web Lock `tab:<id>` while it lives; the worker
 * asks for the same lock, which it is granted only once the tab is gone, and then forgets it,
 * so it never streams into the void. A listener that throws (a dead comlink proxy) is dropped
 * too.
 */
export function createTabRegistry(deps: {
  locks: LockManagerLike;
  /** Called when the set of visible tabs may have changed. */
  onChange: () => void;
}): TabRegistry {
  const connections = new Set<Connection>();
  let nextKey = 1;

  const drop = (conn: Connection) => {
    if (!connections.delete(conn)) return;
    conn.watch?.abort();
    conn.watch = null;
    release(conn.listener);
    conn.listener = null;
    deps.onChange();
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
    try {
      const result = listener(event);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, () => drop(conn));
      }
    } catch {
      drop(conn);
    }
  };

  return {
    open() {
      const conn: Connection = {
        key: nextKey++,
        tabId: null,
        variant: DEFAULT_VARIANT,
        visible: false,
        path: '/',
        listener: null,
        watch: null,
      };
      connections.add(conn);
      return conn;
    },
    hello(conn, info) {
      if (!connections.has(conn)) connections.add(conn);
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
      if (conn.listener !== listener) release(conn.listener);
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
    close() {
      for (const conn of [...connections]) {
        conn.watch?.abort();
        conn.watch = null;
        release(conn.listener);
        conn.listener = null;
      }
      connections.clear();
    },
  };
}

/** Frees the port behind a comlink proxy listener (a plain function has nothing to free). */
function release(listener: TabListener | null) {
  if (!listener) return;
  const free = (listener as unknown as Record<symbol, unknown>)[Comlink.releaseProxy];
  if (typeof free !== 'function') return;
  try {
    void Promise.resolve(free.call(listener)).catch(() => {});
  } catch {
    // Already released.
  }
}
