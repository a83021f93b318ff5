import * as Comlink from 'comlink';
import type {
  OpInput,
  OpName,
  OpOutput,
  SessionState,
  Variant,
  WorkerEvent,
  WorkspaceApi,
} from '../contract/worker-api';

/**
 * The one file where the UI meets the worker. Everything else in src/ holds a `WorkspaceClient`
 * (handed down through React context), so UI tests pass a fake `WorkspaceApi` to
 * `createWorkspaceClient` and never touch comlink or a real worker.
 */
export interface WorkspaceClient {
  readonly tabId: string;
  call<K extends OpName>(op: K, input: OpInput<K>): Promise<OpOutput<K>>;
  /** Local fan-out of the worker's events; returns an unsubscribe function. */
  onEvent(listener: (event: WorkerEvent) => void): () => void;
  /** Tab lock, then tab.hello, then subscribe; resolves with the session the worker knows. */
  start(input: { variant: Variant; path: string }): Promise<SessionState>;
  /** Every route change checks the session (000 §4). */
  route(path: string): Promise<SessionState>;
  /** The tab is going away (pagehide). */
  close(): void;
}

/** The slice of `navigator.locks` the tab needs. */
export type TabLocks = {
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
};

export type VisibilitySource = {
  isVisible(): boolean;
  onChange(listener: (visible: boolean) => void): () => void;
};

/** The window's network state: its 'online' and 'offline' events. */
export type NetworkSource = {
  onChange(listener: (online: boolean) => void): () => void;
};

export type WorkspaceClientDeps = {
  api: WorkspaceApi;
  tabId: string;
  /** null where Web Locks do not exist (jsdom); the worker then relies on tab.bye. */
  locks?: TabLocks | null;
  visibility?: VisibilitySource;
  network?: NetworkSource;
  /** Comlink.proxy in the browser so the worker can call back into the tab; identity in tests. */
  proxyListener?: (listener: (event: WorkerEvent) => void) => (event: WorkerEvent) => void;
};

const alwaysVisible: VisibilitySource = { isVisible: () => true, onChange: () => () => {} };
const quietNetwork: NetworkSource = { onChange: () => () => {} };

export function createWorkspaceClient(deps: WorkspaceClientDeps): WorkspaceClient {
  const { api, tabId } = deps;
  const visibility = deps.visibility ?? alwaysVisible;
  const network = deps.network ?? quietNetwork;
  const listeners = new Set<(event: WorkerEvent) => void>();
  let stopVisibility: (() => void) | null = null;
  let stopNetwork: (() => void) | null = null;
  let started: Promise<SessionState> | null = null;

  const dispatch = (event: WorkerEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  // The worker asks for the same lock to learn the tab died: it is granted only then. We hold it
  // forever, and wait until the callback has run so the worker never sees an unlocked live tab.
  const holdTabLock = async () => {
    const locks = deps.locks;
    if (!locks) return;
    await new Promise<void>((granted) => {
      void locks.request(`tab:${tabId}`, () => {
        granted();
        return new Promise<never>(() => {});
      });
    });
  };

  const start = async (input: { variant: Variant; path: string }) => {
    await holdTabLock();
    const session = await api.call('tab.hello', {
      tab_id: tabId,
      variant: input.variant,
      visible: visibility.isVisible(),
      path: input.path,
    });
    const listener = deps.proxyListener ? deps.proxyListener(dispatch) : dispatch;
    await api.subscribe(listener);
    stopVisibility = visibility.onChange((visible) => {
      void api.call('tab.visibility', { visible }).catch(() => {});
    });
    // Chromium fires no 'online' event inside a SharedWorker: the tabs tell it, so changes
    // queued while offline are sent as soon as the network is back.
    stopNetwork = network.onChange((online) => {
      void api.call('tab.online', { online }).catch(() => {});
    });
    return session;
  };

  return {
    tabId,
    call: (op, input) => api.call(op, input),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start(input) {
      started ??= start(input);
      return started;
    },
    route: (path) => api.call('tab.route', { path }),
    close() {
      stopVisibility?.();
      stopVisibility = null;
      stopNetwork?.();
      stopNetwork = null;
      void api.call('tab.bye', {}).catch(() => {});
    },
  };
}

/** The window's 'online' and 'offline' events as a NetworkSource. */
export function windowNetwork(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
): NetworkSource {
  return {
    onChange(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      target.addEventListener('online', online);
      target.addEventListener('offline', offline);
      return () => {
        target.removeEventListener('online', online);
        target.removeEventListener('offline', offline);
      };
    },
  };
}

/**
 * One SharedWorker per browser profile serves every tab; where SharedWorker does not exist each
 * tab gets a dedicated worker (logout still reaches every tab through BroadcastChannel there).
 */
function openWorkerEndpoint(): Comlink.Endpoint {
  if (typeof SharedWorker !== 'undefined') {
    const worker = new SharedWorker(new URL('../worker/shared-worker.ts', import.meta.url), {
      type: 'module',
      name: 'workspace',
    });
    return worker.port;
  }
  return new Worker(new URL('../worker/dedicated-worker.ts', import.meta.url), { type: 'module' });
}

/** The browser wiring: the worker over comlink, Web Locks, the page's visibility and network. */
export function connectBrowserWorkspace(): WorkspaceClient {
  const remote = Comlink.wrap<WorkspaceApi>(openWorkerEndpoint());
  const api: WorkspaceApi = {
    // comlink's Remote<> loses the generic signature of `call`; the contract types it.
    call: (op, input) => remote.call(op, input) as never,
    subscribe: (listener) => remote.subscribe(listener),
  };
  const client = createWorkspaceClient({
    api,
    tabId: crypto.randomUUID(),
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null,
    visibility: {
      isVisible: () => document.visibilityState === 'visible',
      onChange(listener) {
        const handler = () => listener(document.visibilityState === 'visible');
        document.addEventListener('visibilitychange', handler);
        return () => document.removeEventListener('visibilitychange', handler);
      },
    },
    network: windowNetwork(window),
    proxyListener: (listener) => Comlink.proxy(listener),
  });
  // A page kept in the back/forward cache may come back; only a page really going away says bye.
  window.addEventListener('pagehide', (event) => {
    if (!event.persisted) client.close();
  });
  return client;
}
