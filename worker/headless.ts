import { randomUUID } from 'node:crypto';
import * as Comlink from 'comlink';
// idb recognises requests by the global IDB classes (instanceof IDBRequest): Node has none.
import 'fake-indexeddb/auto';
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { DEFAULT_PRODUCT } from '../contract/constants';
import type { SessionState, Variant, WorkerEvent, WorkspaceApi } from '../contract/worker-api';
import { createWorkspace, type Workspace } from './create-workspace';
import {
  systemClock,
  type BroadcastChannelFactory,
  type Clock,
  type FetchLike,
  type LockManagerLike,
  type WorkspaceDeps,
} from './deps';
import { productDomains } from './domains';
import { openMirror, type Mirror, type StoreSpecs } from './mirror';
import { CORE_CONTRACTS } from './ops';
import type { WorkerDomain } from './registry';
import { createRegistry } from './registry-build';
import { createBroadcastHub, createMemoryLocks } from './testing';

/**
 * The worker in Node: the real createWorkspace with fake-indexeddb, in-memory Web Locks and
 * BroadcastChannel, and tabs that reach it through comlink over real MessageChannels, as the
 * browser's tabs reach the SharedWorker. Tests, the CLI and the bench run on it.
 */
export type HeadlessOptions = {
  baseUrl: string;
  indexedDB?: IDBFactory;
  clock?: Clock;
  product?: string;
  fetch?: FetchLike;
  /** Share one between workspaces to stand for one browser profile (dedicated-worker fallback). */
  locks?: LockManagerLike;
  broadcastChannel?: BroadcastChannelFactory;
  dbName?: string;
  warn?: (message: string) => void;
  /** The worker domains to run (the product's by default; a test adds its own). */
  domains?: readonly WorkerDomain[];
  /** Keep the live connection (GET /sync/live) as the browser does; off unless asked. */
  live?: boolean;
};

export type HeadlessTab = {
  tabId: string;
  /** The worker's API, comlink-wrapped over a real MessagePort. */
  api: WorkspaceApi;
  /** Every event the worker sent this tab, in order. */
  events: WorkerEvent[];
  port: MessagePort;
  /** tab.hello's answer. */
  session: SessionState;
  /**
   * The first event that `match` accepts, received already (from index `since` of `events`)
   * or still to come.
   */
  waitFor(
    match: (event: WorkerEvent) => boolean,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<WorkerEvent>;
  /** The tab dies without a word: its Web Lock goes, the port stays open. */
  releaseLock(): void;
  /** The tab closes: lock released, port closed. */
  close(): void;
};

export type TabOptions = {
  variant?: Variant;
  visible?: boolean;
  path?: string;
  /** The page's own handling of each event (after it is recorded); may throw, like a UI bug. */
  onEvent?: (event: WorkerEvent) => void;
};

export type HeadlessWorkspace = {
  workspace: Workspace;
  deps: WorkspaceDeps;
  /** The mirror's stores as this workspace declares them. */
  specs: StoreSpecs<string>;
  /** A second connection to the workspace's mirror (to look at what it holds); close it. */
  openMirror(): Promise<Mirror<string>>;
  /** Opens a tab the way src/workspace-client.ts does: tab lock, tab.hello, subscribe. */
  tab(name?: string, options?: TabOptions): Promise<HeadlessTab>;
  close(): Promise<void>;
};

/** Node's fetch, as the worker's FetchLike (it streams bodies both ways and honours signals). */
export const nodeFetch: FetchLike = (url, init) => fetch(url, init);

/** The mirror's stores for `domains`, as createWorkspace declares them. */
export const mirrorSpecs = (domains: readonly WorkerDomain[] = productDomains) =>
  createRegistry(CORE_CONTRACTS, domains).specs;

export function createHeadlessWorkspace(options: HeadlessOptions): HeadlessWorkspace {
  const deps: WorkspaceDeps = {
    fetch: options.fetch ?? nodeFetch,
    indexedDB: options.indexedDB ?? new FakeIDBFactory(),
    clock: options.clock ?? systemClock,
    locks: options.locks ?? createMemoryLocks(),
    broadcastChannel: options.broadcastChannel ?? createBroadcastHub().channel,
    randomId: () => randomUUID(),
    baseUrl: options.baseUrl,
    product: options.product ?? DEFAULT_PRODUCT,
    dbName: options.dbName,
    warn: options.warn,
  };
  const domains = options.domains ?? productDomains;
  const workspace = createWorkspace(deps, { domains, live: options.live ?? false });
  const specs = mirrorSpecs(domains);
  const tabs = new Set<HeadlessTab>();

  async function tab(name?: string, tabOptions: TabOptions = {}): Promise<HeadlessTab> {
    const tabId = name ?? randomUUID();
    const { port1, port2 } = new MessageChannel();
    workspace.connect(port1);
    const remote = Comlink.wrap<WorkspaceApi>(port2);
    const api: WorkspaceApi = {
      // comlink's Remote<> loses the generic signature of `call`; the contract types it.
      call: (op, input) => remote.call(op, input) as never,
      subscribe: (listener) => remote.subscribe(listener),
    };

    // Held while the tab lives, like the browser tab's `tab:<id>` lock.
    let releaseLock = () => {};
    await new Promise<void>((granted) => {
      void deps.locks.request(`tab:${tabId}`, {}, () => {
        granted();
        return new Promise<void>((release) => {
          releaseLock = release;
        });
      });
    });

    const events: WorkerEvent[] = [];
    const waiters = new Set<{
      match: (e: WorkerEvent) => boolean;
      done: (e: WorkerEvent) => void;
    }>();
    const listener = (event: WorkerEvent) => {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.match(event)) {
          waiters.delete(waiter);
          waiter.done(event);
        }
      }
      tabOptions.onEvent?.(event);
    };
    const session = await api.call('tab.hello', {
      tab_id: tabId,
      variant: tabOptions.variant ?? 'main',
      visible: tabOptions.visible ?? true,
      path: tabOptions.path ?? '/',
    });
    await api.subscribe(Comlink.proxy(listener));

    const handle: HeadlessTab = {
      tabId,
      api,
      events,
      port: port2,
      session,
      waitFor(match, { since = 0, timeoutMs = 10_000 } = {}) {
        const seen = events.slice(since).find(match);
        if (seen) return Promise.resolve(seen);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(`tab ${tabId}: no matching event within ${timeoutMs} ms`));
          }, timeoutMs);
          const waiter = {
            match,
            done: (event: WorkerEvent) => {
              clearTimeout(timer);
              resolve(event);
            },
          };
          waiters.add(waiter);
        });
      },
      releaseLock: () => releaseLock(),
      close() {
        tabs.delete(handle);
        releaseLock();
        port2.close();
      },
    };
    tabs.add(handle);
    return handle;
  }

  return {
    workspace,
    deps,
    specs,
    openMirror: () => openMirror(deps.indexedDB, deps.dbName ?? `${deps.product}-workspace`, specs),
    tab,
    async close() {
      for (const open of [...tabs]) open.close();
      await workspace.close();
    },
  };
}
