import type { OpInput, OpName, OpOutput, WorkspaceApi } from '../contract/worker-api';
import { AUTH_POLL_MS } from '../contract/constants';
import type { ApiClient } from './api-client';
import { createAuthPoll } from './auth-poll';
import { createConnectivity, type Connectivity } from './connectivity';
import { createLiveSync } from './live';
import type { SessionSignal } from './registry-runtime';
import type { Sync } from './sync';
import type { Clock, FetchLike, WorkspaceDeps } from './deps';
import { PUBLIC_OPS, type OpCall } from './ops';
import type { Outbox } from './outbox';
import type { Registry } from './registry-build';
import type { SessionManager } from './session';
import type { Connection, TabRegistry } from './tabs';

const never = () => new Promise<never>(() => {});

/** Whether the server is reachable, probed with GET /health while a tab is visible. */
export function createServerConnectivity(deps: {
  clock: Clock;
  fetch: FetchLike;
  baseUrl: string;
  changed: (online: boolean) => void;
  track: (work: Promise<unknown>) => void;
}): Connectivity {
  return createConnectivity({
    clock: deps.clock,
    probe: async (probeSignal) => {
      const response = await deps.fetch(`${deps.baseUrl}/health`, {
        method: 'GET',
        headers: {},
        signal: probeSignal,
      });
      return response.status >= 200 && response.status < 300;
    },
    changed: deps.changed,
    track: deps.track,
  });
}

/**
 * The server watched while a tab is visible: the auth poll (each poll also pulls the change feed,
 * so a quiet tab still converges) and the live signal (a pull as soon as the server's change
 * sequence moves).
 */
export function createServerWatch(opts: {
  deps: WorkspaceDeps;
  client: ApiClient;
  session: SessionManager;
  sync: Sync;
  signal: SessionSignal;
  track: (work: Promise<unknown>) => void;
  warn: (message: string) => void;
  lost: () => void;
}) {
  const { deps, session, sync, track } = opts;
  const poll = createAuthPoll({
    clock: deps.clock,
    locks: deps.locks,
    intervalMs: AUTH_POLL_MS,
    tick: async () => {
      if ((await session.check()).status === 'signed-in') await sync.pull();
    },
    track,
  });
  const live = createLiveSync({
    client: opts.client,
    clock: deps.clock,
    pull: () => sync.pull(),
    signal: opts.signal.current,
    track,
    warn: opts.warn,
    lost: opts.lost,
  });
  return { poll, live };
}

/**
 * The WorkspaceApi one connection gets: every op's input checked against its contract, nothing
 * run before the stored session is loaded, and the no-token rule (000 §8) for signed-in ops.
 */
export function createTabApi(deps: {
  ops: ReadonlyMap<string, OpCall>;
  registry: Registry;
  session: SessionManager;
  tabs: TabRegistry;
  connectivity: Connectivity;
  outbox: Outbox;
  closed: () => boolean;
}): (conn: Connection) => WorkspaceApi {
  const { ops, registry, session, tabs } = deps;

  async function dispatch(conn: Connection, op: string, input: unknown): Promise<unknown> {
    if (deps.closed()) throw new Error(`The workspace is closed; "${op}" was not run`);
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

  return (conn) => ({
    call: <K extends OpName>(op: K, input: OpInput<K>) =>
      dispatch(conn, op, input) as Promise<OpOutput<K>>,
    subscribe: async (listener) => {
      tabs.subscribe(conn, listener);
      // A tab that opens while the server is unreachable hears so at once, not at the next move.
      if (!deps.connectivity.online()) tabs.send(conn, { type: 'online', online: false });
      void deps.outbox.pending().then(
        (pending) => void (pending > 0 && tabs.send(conn, { type: 'outbox', pending })),
        () => {},
      );
    },
  });
}
