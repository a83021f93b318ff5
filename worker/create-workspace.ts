import * as Comlink from 'comlink';
import { AUTH_POLL_MS } from '../contract/constants';
import {
  workspaceOps,
  type OpInput,
  type OpName,
  type OpOutput,
  type WorkspaceApi,
} from '../contract/worker-api';
import { createApiClient, messageOf } from './api-client';
import { createAuthPoll } from './auth-poll';
import type { WorkspaceDeps } from './deps';
import { ENTITY_STORES, openMirror, type Mirror, type StoreName } from './mirror';
import { createMutations } from './mutations';
import { createOpHandlers, PUBLIC_OPS } from './ops';
import { createOutbox } from './outbox';
import { createReads } from './reads';
import { createSessionManager } from './session';
import { createSync } from './sync';
import { createTabRegistry, type Connection } from './tabs';

export type { WorkspaceDeps } from './deps';

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

/** The user's data: what a sign-out (or another user's sign-in) wipes from the mirror. */
const USER_STORES: StoreName[] = ['notifications', 'cursors', ...ENTITY_STORES];
/** A connection that has not said hello by then is not a tab: its port is closed. */
export const HELLO_TIMEOUT_MS = 60_000;
const never = () => new Promise<never>(() => {});

/**
 * The worker core: one instance per SharedWorker (or per dedicated worker) serving every tab
 * connected to it. All browser capabilities come from `deps`, so the same code runs in Node.
 */
export function createWorkspace(deps: WorkspaceDeps): Workspace {
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
  let reachable = true;
  const ports = new Set<Comlink.Endpoint>();

  const mirror: Promise<Mirror> = openMirror(
    deps.indexedDB,
    deps.dbName ?? `${deps.product}-workspace`,
  );
  mirror.catch((error) =>
    warn(`workspace: the IndexedDB mirror did not open: ${messageOf(error)}`),
  );

  const tabs = createTabRegistry({
    locks: deps.locks,
    clock: deps.clock,
    helloTimeoutMs: HELLO_TIMEOUT_MS,
    warn,
    onChange: () => pollUpdate(),
  });
  const client = createApiClient({
    fetch: deps.fetch,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    product: deps.product,
    requestOrigin: deps.requestOrigin,
    randomId: deps.randomId,
    auth: {
      token: () => session.token(),
      refresh: (stale) => session.refresh(stale),
      missing: (label) => session.missing(label),
      unauthorized: (token) => session.unauthorized(token),
      expired: (token) => session.expired(token),
      keepLog: (logData) => session.keepLog(logData),
    },
    onReachable(now) {
      if (now === reachable) return;
      reachable = now;
      tabs.broadcast({ type: 'online', online: now });
      // The network is back: send what waited for it.
      if (now && !closed) track(outbox.drain());
    },
  });
  const reads = createReads({
    mirror,
    client,
    clock: deps.clock,
    owner: () => session.owner(),
    broadcast: (event) => tabs.broadcast(event),
    track,
  });
  const sync = createSync({
    mirror,
    client,
    owner: () => session.owner(),
    announce: (stores) => reads.announce(stores),
  });
  const outbox = createOutbox({
    mirror,
    client,
    clock: deps.clock,
    locks: deps.locks,
    randomId: deps.randomId,
    ops: createMutations(mirror),
    owner: () => session.owner(),
    emit: (event) => tabs.broadcast(event),
    announce: (stores) => reads.announce(stores),
    confirmed: () => track(sync.pull()),
    track,
  });

  const session = createSessionManager({
    mirror,
    client,
    clock: deps.clock,
    locks: deps.locks,
    channel: deps.broadcastChannel(`${deps.product}-session`),
    randomId: deps.randomId,
    broadcast: (event, exceptTab) => tabs.broadcast(event, exceptTab),
    hooks: {
      async signedIn(user, here) {
        await outbox.keepOnly(user.id);
        if (!here || closed) return;
        const variant = tabs.variant();
        // Feature config is cached forever but fetched again on every sign-in (000 §7).
        track(reads.refreshOnSignIn(variant));
        track(sync.pull());
        track(outbox.drain());
        track(session.flushLogs());
      },
      changed: () => pollUpdate(),
    },
    userData: { stores: USER_STORES },
  });

  const poll = createAuthPoll({
    clock: deps.clock,
    locks: deps.locks,
    intervalMs: AUTH_POLL_MS,
    // Each poll also pulls the change feed, so a quiet tab still converges.
    tick: async () => {
      const state = await session.check();
      if (state.status === 'signed-in') await sync.pull();
    },
    track,
  });
  function pollUpdate() {
    poll.update(!closed && session.token() !== null && tabs.anyVisible());
  }

  track(
    session.ready.then(() => {
      if (closed || !session.token()) return;
      track(outbox.drain());
      track(sync.pull());
      track(session.flushLogs());
    }),
  );
  const stopOnline = deps.network?.onOnline(() => {
    if (!closed) track(outbox.drain());
  });

  const handlers = createOpHandlers({ session, tabs, reads, outbox, sync });

  async function dispatch(conn: Connection, op: string, input: unknown): Promise<unknown> {
    if (closed) throw new Error(`The workspace is closed; "${op}" was not run`);
    if (!Object.hasOwn(workspaceOps, op)) throw new Error(`Unknown workspace operation "${op}"`);
    const name = op as OpName;
    const parsed = workspaceOps[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? issue.path.join('.') : '(input)';
      throw new Error(`Invalid input for "${name}": ${field}: ${issue?.message}`);
    }
    // Nothing runs before the stored session is loaded (a sign-in must not race the load).
    await session.ready;
    if (!PUBLIC_OPS.has(name)) {
      if (!session.token()) {
        // No token (000 §8): logout broadcast to every tab; this call never completes.
        session.missing(name);
        return never();
      }
    }
    const handler = handlers[name] as (input: unknown, conn: Connection) => unknown;
    return handler(parsed.data, conn);
  }

  const apiFor = (conn: Connection): WorkspaceApi => ({
    call: <K extends OpName>(op: K, input: OpInput<K>) =>
      dispatch(conn, op, input) as Promise<OpOutput<K>>,
    subscribe: async (listener) => tabs.subscribe(conn, listener),
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
      poll.stop();
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

let errorTransferInstalled = false;

/**
 * comlink sends a thrown Error as message, name and stack only; an ApiError's status, code
 * and field issues matter to the tab, so they travel too (comlink's own receiving side copies
 * every field onto the Error it rethrows).
 */
function installErrorTransfer() {
  if (errorTransferInstalled) return;
  errorTransferInstalled = true;
  const original = Comlink.transferHandlers.get('throw');
  if (!original) return;
  Comlink.transferHandlers.set('throw', {
    canHandle: original.canHandle,
    serialize(thrown) {
      const { value } = thrown as { value: unknown };
      if (!(value instanceof Error)) return original.serialize(thrown);
      const { message, name, stack } = value;
      const extra = { ...(value as unknown as Record<string, unknown>) };
      return [{ isError: true, value: { ...extra, message, name, stack } }, []];
    },
    deserialize: original.deserialize,
  });
}
