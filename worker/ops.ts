import type { z } from 'zod';
import { auth } from '../contract/auth';
import type { OpDef } from '../contract/define';
import { sync } from '../contract/sync';
import { tabs } from '../contract/tabs';
import type { Outbox } from './outbox';
import type { Registry } from './registry-build';
import type { DomainContext } from './registry';
import type { SessionManager } from './session';
import type { Sync } from './sync';
import type { Connection, TabRegistry } from './tabs';

/** The contracts whose ops the worker's core answers itself (no mirror stores of their own). */
export const CORE_CONTRACTS = [tabs, auth, sync] as const;

type CoreOps = typeof tabs.ops & typeof auth.ops & typeof sync.ops;
type Handler<D extends OpDef> = (
  input: z.output<D['input']>,
  conn: Connection,
) => Promise<z.infer<D['output']>> | z.infer<D['output']>;

/** One handler per core op, given the parsed input and the calling tab. */
export type CoreHandlers = { [K in keyof CoreOps]: Handler<CoreOps[K]> };

/** Any op's handler as dispatch calls it (its input already parsed with the op's schema). */
export type OpCall = (input: unknown, conn: Connection) => unknown;

/** Ops a signed-out tab may call; every other op needs a token (000 §8: else logout). */
export const PUBLIC_OPS: ReadonlySet<string> = new Set<keyof CoreOps>([
  'tab.hello',
  'tab.visibility',
  'tab.route',
  'tab.online',
  'tab.bye',
  'auth.session',
  'auth.signIn',
  'auth.signUp',
  'auth.forgotPassword',
  'auth.resetPassword',
  'auth.signOut',
  'auth.oauthComplete',
  'auth.storeRedirect',
  'auth.takeRedirect',
  'outbox.list',
]);

/** The core's ops: tabs, the session, and the outbox and change feed as a whole. */
export function createCoreHandlers(ctx: {
  session: SessionManager;
  tabs: TabRegistry;
  outbox: Outbox;
  sync: Sync;
}): CoreHandlers {
  const { session, tabs, outbox, sync } = ctx;
  return {
    'tab.hello': async (input, conn) => {
      tabs.hello(conn, {
        tabId: input.tab_id,
        variant: input.variant,
        visible: input.visible,
        path: input.path,
      });
      await session.ready;
      return session.state();
    },
    'tab.visibility': (input, conn) => tabs.setVisible(conn, input.visible),
    'tab.route': async (input, conn) => {
      tabs.setPath(conn, input.path);
      await session.ready;
      return session.check();
    },
    // Chromium fires no 'online' event inside a SharedWorker: the tabs say so instead.
    'tab.online': (input) => {
      if (input.online) outbox.networkBack();
    },
    'tab.bye': (_input, conn) => tabs.bye(conn),

    'auth.session': async () => {
      await session.ready;
      return session.state();
    },
    'auth.signIn': (input, conn) => session.signIn(input, conn.tabId, conn.variant),
    'auth.signUp': (input, conn) => session.signUp(input, conn.tabId, conn.variant),
    'auth.forgotPassword': (input, conn) => session.forgotPassword(input, conn.variant),
    'auth.resetPassword': (input, conn) => session.resetPassword(input, conn.variant),
    'auth.signOut': (_input, conn) => session.signOut(conn.tabId, conn.variant),
    'auth.oauthComplete': (_input, conn) => session.oauthComplete(conn.tabId),
    'auth.updateProfile': (input, conn) => session.updateProfile(input, conn.variant),
    'auth.changePassword': (input, conn) => session.changePassword(input, conn.variant),
    'auth.signOutEverywhere': (_input, conn) => session.signOutEverywhere(conn.tabId, conn.variant),
    'auth.storeRedirect': (input) => session.storeRedirect(input.path),
    'auth.takeRedirect': async () => ({ path: await session.takeRedirect() }),

    'sync.pull': () => sync.pull(),
    'outbox.list': () => outbox.list(),
    'outbox.drain': () => outbox.drain({ force: true }),
  };
}

/**
 * Every op's handler: the core's, each domain's reads, and each domain's mutations (stored in
 * the outbox and answered with the server's answer, or the optimistic one while it waits).
 */
export function createOpTable(deps: {
  core: CoreHandlers;
  registry: Registry;
  context: DomainContext;
  outbox: Outbox;
}): ReadonlyMap<string, OpCall> {
  const table = new Map<string, OpCall>(Object.entries(deps.core) as [string, OpCall][]);
  for (const [name, { handler }] of deps.registry.reads) {
    table.set(name, (input, conn) => handler(deps.context, input, conn));
  }
  for (const [name, { mutation }] of deps.registry.mutations) {
    table.set(name, async (input, conn) => {
      if (mutation.admit && !(await mutation.admit(deps.context))) return undefined;
      return deps.outbox.enqueue(name, input, conn.variant);
    });
  }
  for (const name of Object.keys(deps.registry.ops)) {
    if (!table.has(name)) throw new Error(`worker: op "${name}" has no handler`);
  }
  return table;
}
