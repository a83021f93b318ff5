import * as Comlink from 'comlink';
import type { WorkspaceApi } from '../contract/worker-api';
import { messageOf } from './api-client';
import { createBackground, installErrorTransfer } from './create-workspace-parts';
import type { WorkspaceDeps } from './deps';
import { productDomains } from './domains';
import { openMirror, type Mirror } from './mirror';
import { createCoreHandlers, createOpTable, CORE_CONTRACTS } from './ops';
import type { WorkerDomain } from './registry';
import { createRegistry } from './registry-build';
import { createDomainRuntime, createSessionCore } from './workspace-session';
import { createServerConnectivity, createServerWatch, createTabApi } from './workspace-tabs';

export type { WorkspaceDeps } from './deps';

export type WorkspaceOptions = {
  /** The worker domains to run (the product's by default; a test adds its own). */
  domains?: readonly WorkerDomain[];
  /**
   * Keep the live connection (GET /sync/live) while a tab is visible (default true). The
   * headless harness turns it off unless asked, so a test's pulls are its own.
   */
  live?: boolean;
};

export type Workspace = {
  /** Serve one tab over a port (a SharedWorker port, a dedicated worker's self, a MessagePort). */
  connect(port: Comlink.Endpoint): void;
  /** A WorkspaceApi in-process, for Node (the CLI); a connection that is not a tab. */
  api(): WorkspaceApi;
  /** Resolves once the background work started so far (polls, pulls, sends) has finished. */
  idle(): Promise<void>;
  /** The ids of the tabs the worker serves now. */
  tabIds(): string[];
  close(): Promise<void>;
};

export { HELLO_TIMEOUT_MS } from './workspace-session';

/**
 * The worker core: one instance per SharedWorker (or per dedicated worker) serving every tab
 * connected to it, running every domain of the registry. All browser capabilities come from
 * `deps`, so the same code runs in Node.
 */
export function createWorkspace(deps: WorkspaceDeps, options: WorkspaceOptions = {}): Workspace {
  installErrorTransfer();
  const warn = deps.warn ?? ((message: string) => console.warn(message));
  const { track, idle } = createBackground(warn);
  let closed = false;
  const ports = new Set<Comlink.Endpoint>();

  // 1. The registry, and the mirror it declares.
  const registry = createRegistry(CORE_CONTRACTS, options.domains ?? productDomains);
  const dbName = deps.dbName ?? `${deps.product}-workspace`;
  const mirror: Promise<Mirror<string>> = openMirror(deps.indexedDB, dbName, registry.specs);
  mirror.catch((error) =>
    warn(`workspace: the IndexedDB mirror did not open: ${messageOf(error)}`),
  );

  // 2. Tabs, the API client and the session (with the calls back up, set in step 4).
  const { tabs, client, session, signal, tabsChanged, reached, signedIn, sessionChanged } =
    createSessionCore({ deps, registry, mirror, warn });

  // 3. What the domains run with: reads, then the change feed and the outbox.
  const { ctx, sync, outbox, refresh } = createDomainRuntime({
    deps,
    registry,
    mirror,
    client,
    session,
    signal,
    tabs,
    track,
  });
  // The auth poll and the live signal, each pulling the change feed.
  const { poll, live } = createServerWatch({
    deps,
    client,
    session,
    sync,
    signal,
    track,
    warn,
    lost: () => connectivity.check(),
  });
  const liveOn = options.live ?? true;

  // Whether the server is reachable: one state for every tab; its return acted on at once.
  const connectivity = createServerConnectivity({
    ...deps,
    track,
    changed: (online) => {
      tabs.broadcast({ type: 'online', online });
      if (!online || closed) return;
      outbox.networkBack();
      if (!live.now() && session.token()) track(sync.pull());
    },
  });

  // 4. The calls back up, now that their targets exist.
  const pollUpdate = () => {
    const active = !closed && session.token() !== null && tabs.anyVisible();
    poll.update(active);
    live.update(liveOn && active);
    connectivity.update(tabs.anyVisible());
  };
  tabsChanged.set(pollUpdate);
  sessionChanged.set(() => {
    signal.check();
    pollUpdate();
  });
  signedIn.set(async (userId, here) => {
    await outbox.keepOnly(userId);
    if (!here || closed) return;
    // Feature config is cached forever but fetched again on every sign-in (000 §7).
    refresh();
    track(sync.pull());
    track(outbox.drain());
    track(session.flushLogs());
  });
  reached.set((now) => {
    connectivity.reached(now);
    // Any answer from the server: what waited for the network goes now.
    if (now && !closed) outbox.networkBack();
  });

  // 5. Start: resume the stored session's work; listen for the network.
  track(
    session.ready.then(() => {
      if (closed || !session.token()) return;
      track(outbox.drain());
      track(sync.pull());
      track(session.flushLogs());
    }),
  );
  const stopOnline = deps.network?.onOnline(() => {
    if (closed) return;
    outbox.networkBack();
    connectivity.check();
  });

  // 6. The ops tabs call.
  const ops = createOpTable({
    core: createCoreHandlers({ session, tabs, outbox, sync }),
    registry,
    context: ctx,
    outbox,
  });

  const apiFor = createTabApi({
    ops,
    registry,
    session,
    tabs,
    connectivity,
    outbox,
    closed: () => closed,
  });

  return {
    connect(port) {
      if (closed) return;
      ports.add(port);
      // The port goes with its tab: a dropped tab keeps no port, listener or API behind.
      const conn = tabs.open(() => {
        ports.delete(port);
        (port as { close?: () => void }).close?.();
      });
      Comlink.expose(apiFor(conn), port);
    },
    api: () => apiFor(tabs.open()),
    idle,
    tabIds: () => tabs.tabIds(),
    async close() {
      if (closed) return;
      closed = true;
      signal.close();
      poll.stop();
      live.stop();
      connectivity.stop();
      outbox.close();
      tabs.close();
      session.close();
      stopOnline?.();
      await idle();
      for (const port of ports) (port as { close?: () => void }).close?.();
      ports.clear();
      (await mirror.catch(() => null))?.close();
    },
  };
}
