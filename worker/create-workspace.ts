import * as Comlink from 'comlink';
import { AUTH_POLL_MS } from '../contract/constants';
import type { OpInput, OpName, OpOutput, WorkspaceApi } from '../contract/worker-api';
import { createApiClient, messageOf } from './api-client';
import { createAuthPoll } from './auth-poll';
import { createConnectivity } from './connectivity';
import { createAuthRelay, installErrorTransfer, later } from './create-workspace-parts';
import { createLiveSync } from './live';
import type { WorkspaceDeps } from './deps';
import { productDomains } from './domains';
import { openMirror, type Mirror, type StoreName } from './mirror';
import { createCoreHandlers, createOpTable, CORE_CONTRACTS, PUBLIC_OPS } from './ops';
import { createOutbox } from './outbox';
import { createReads } from './reads';
import type { DomainContext, WorkerDomain } from './registry';
import { createRegistry, offerOf } from './registry-build';
import { createSessionSignal, refreshDomains } from './registry-runtime';
import { createSessionManager } from './session';
import { createSync } from './sync';
import { createTabRegistry, type Connection } from './tabs';

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

/** A connection that has not said hello by then is not a tab: its port is closed. */
export const HELLO_TIMEOUT_MS = 60_000;
const never = () => new Promise<never>(() => {});

/**
 * The worker core: one instance per SharedWorker (or per dedicated worker) serving every tab
 * connected to it, running every domain of the registry. All browser capabilities come from
 * `deps`, so the same code runs in Node.
 */
export function createWorkspace(deps: WorkspaceDeps, options: WorkspaceOptions = {}): Workspace {
  installErrorTransfer();
  const warn = deps.warn ?? ((message: string) => console.warn(message));
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked: Promise<unknown> = work
      .catch((error) => warn(`workspace: background work failed: ${messageOf(error)}`))
      .finally(() => background.delete(tracked));
    background.add(tracked);
  };
  let closed = false;
  const ports = new Set<Comlink.Endpoint>();

  // 1. The registry, and the mirror it declares.
  const registry = createRegistry(CORE_CONTRACTS, options.domains ?? productDomains);
  const dbName = deps.dbName ?? `${deps.product}-workspace`;
  const mirror: Promise<Mirror<string>> = openMirror(deps.indexedDB, dbName, registry.specs);
  mirror.catch((error) =>
    warn(`workspace: the IndexedDB mirror did not open: ${messageOf(error)}`),
  );

  // 2. Tabs, the API client and the session.
  const tabsChanged = later<[], void>(undefined);
  const tabs = createTabRegistry({
    locks: deps.locks,
    clock: deps.clock,
    helloTimeoutMs: HELLO_TIMEOUT_MS,
    warn,
    onChange: tabsChanged.call,
  });
  const auth = createAuthRelay();
  const reached = later<[boolean], void>(undefined);
  const client = createApiClient({ ...deps, auth: auth.hooks, onReachable: reached.call });
  const signedIn = later<[string, boolean], Promise<void> | void>(undefined);
  const onSessionChanged = later<[], void>(undefined);
  const session = createSessionManager({
    // The session's own stores are the core's; the domains' are wiped as user data.
    mirror: mirror as unknown as Promise<Mirror<StoreName>>,
    client,
    clock: deps.clock,
    locks: deps.locks,
    channel: deps.broadcastChannel(`${deps.product}-session`),
    randomId: deps.randomId,
    broadcast: tabs.broadcast,
    hooks: {
      signedIn: (user, here) => signedIn.call(user.id, here),
      changed: onSessionChanged.call,
    },
    userData: { stores: [...registry.domainStores, 'cursors'] as StoreName[] },
  });
  auth.attach(session);
  const signal = createSessionSignal(session.owner);

  // 3. What the domains run with: reads, then the change feed and the outbox.
  const reads = createReads({
    mirror,
    owner: session.owner,
    signal: signal.current,
    domainStores: new Set(registry.domainStores),
    watchers: registry.watchers,
    emit: tabs.broadcast,
    track,
  });
  const ctx: DomainContext = {
    mirror,
    client,
    clock: deps.clock,
    product: deps.product,
    owner: session.owner,
    signal: signal.current,
    reads,
    emit: tabs.broadcast,
    deliver: tabs.send,
    track,
    variant: tabs.variant,
    claimAnalytics: session.claimAnalytics,
    // The registry holds offers with their types erased; DomainOffers types each name's call.
    ask: ((name: string, ...args: unknown[]) =>
      offerOf(registry, name)(ctx, ...args)) as DomainContext['ask'],
  };
  const refresh = () => track(refreshDomains(registry.domains, ctx, tabs.variant()));
  const sync = createSync({
    mirror,
    client,
    owner: session.owner,
    signal: signal.current,
    changes: registry.changes,
    domainStores: registry.domainStores,
    reads,
    afterReset: refresh,
    context: ctx,
    track,
  });
  const outbox = createOutbox({
    ...deps,
    mirror,
    client,
    mutations: registry.mutations,
    context: ctx,
    owner: session.owner,
    emit: tabs.broadcast,
    announce: reads.announceChanges,
    confirmed: () => track(sync.pull()),
    track,
  });
  // Each poll also pulls the change feed, so a quiet tab still converges.
  const poll = createAuthPoll({
    clock: deps.clock,
    locks: deps.locks,
    intervalMs: AUTH_POLL_MS,
    tick: async () => {
      if ((await session.check()).status === 'signed-in') await sync.pull();
    },
    track,
  });

  // The live signal: a pull as soon as the server's change sequence moves.
  const live = createLiveSync({
    client,
    clock: deps.clock,
    pull: () => sync.pull(),
    signal: signal.current,
    track,
    warn,
    lost: () => connectivity.check(),
  });
  const liveOn = options.live ?? true;

  // Whether the server is reachable: one state for every tab; its return acted on at once.
  const connectivity = createConnectivity({
    clock: deps.clock,
    probe: async (probeSignal) => {
      const response = await deps.fetch(`${deps.baseUrl}/health`, {
        method: 'GET',
        headers: {},
        signal: probeSignal,
      });
      return response.status >= 200 && response.status < 300;
    },
    changed: (online) => {
      tabs.broadcast({ type: 'online', online });
      if (!online || closed) return;
      outbox.networkBack();
      if (!live.now() && session.token()) track(sync.pull());
    },
    track,
  });

  // 4. The calls back up, now that their targets exist.
  const pollUpdate = () => {
    const active = !closed && session.token() !== null && tabs.anyVisible();
    poll.update(active);
    live.update(liveOn && active);
    connectivity.update(tabs.anyVisible());
  };
  tabsChanged.set(pollUpdate);
  onSessionChanged.set(() => {
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

  async function dispatch(conn: Connection, op: string, input: unknown): Promise<unknown> {
    if (closed) throw new Error(`The workspace is closed; "${op}" was not run`);
    const handler = ops.get(op);
    if (!handler || !Object.hasOwn(registry.ops, op)) {
      throw new Error(`Unknown workspace operation "${op}"`);
    }
    const parsed = registry.ops[op].input.safeParse(input ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? issue.path.join('.') : '(input)';
      throw new Error(`Invalid input for "${op}": ${field}: ${issue?.message}`);
    }
    // Nothing runs before the stored session is loaded (a sign-in must not race the load).
    await session.ready;
    // A domain op marked public (a shared document's reads) runs signed out too.
    if (!PUBLIC_OPS.has(op) && !registry.ops[op].public && !session.token()) {
      // No token (000 §8): logout broadcast to every tab; this call never completes.
      session.missing(op);
      return never();
    }
    return handler(parsed.data, conn);
  }

  const apiFor = (conn: Connection): WorkspaceApi => ({
    call: <K extends OpName>(op: K, input: OpInput<K>) =>
      dispatch(conn, op, input) as Promise<OpOutput<K>>,
    subscribe: async (listener) => {
      tabs.subscribe(conn, listener);
      // A tab that opens while the server is unreachable hears so at once, not at the next move.
      if (!connectivity.online()) tabs.send(conn, { type: 'online', online: false });
      void outbox.pending().then(
        (pending) => void (pending > 0 && tabs.send(conn, { type: 'outbox', pending })),
        () => {},
      );
    },
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
    async idle() {
      while (background.size > 0) await Promise.all([...background]);
    },
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
      while (background.size > 0) await Promise.all([...background]);
      for (const port of ports) (port as { close?: () => void }).close?.();
      ports.clear();
      (await mirror.catch(() => null))?.close();
    },
  };
}
