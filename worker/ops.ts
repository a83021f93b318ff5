import type { z } from 'zod';
import type { Preferences } from '../contract/user';
import type { OpName, OpOutput, WorkspaceOps } from '../contract/worker-api';
import type { Outbox } from './outbox';
import type { Reads } from './reads';
import type { SessionManager } from './session';
import type { Sync } from './sync';
import type { Connection, TabRegistry } from './tabs';

/** One handler per op of contract/worker-api.ts, given the parsed input and the calling tab. */
export type OpHandlers = {
  [K in OpName]: (
    input: z.output<WorkspaceOps[K]['input']>,
    conn: Connection,
  ) => Promise<OpOutput<K>> | OpOutput<K>;
};

/** Ops a signed-out tab may call; every other op needs a token (000 §8: else logout). */
export const PUBLIC_OPS: ReadonlySet<OpName> = new Set<OpName>([
  'tab.hello',
  'tab.visibility',
  'tab.route',
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

/** The worker's API as a typed handler map (like Actual Budget's per-domain handlers). */
export function createOpHandlers(ctx: {
  session: SessionManager;
  tabs: TabRegistry;
  reads: Reads;
  outbox: Outbox;
  sync: Sync;
}): OpHandlers {
  const { session, tabs, reads, outbox, sync } = ctx;
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
    'auth.storeRedirect': (input) => session.storeRedirect(input.path),
    'auth.takeRedirect': async () => ({ path: await session.takeRedirect() }),

    'flags.get': (_input, conn) => reads.flags(conn.variant),
    'preferences.get': (_input, conn) => reads.preferences(conn.variant),
    'preferences.update': async (input, conn) =>
      (await outbox.enqueue('preferences.update', input, conn.variant)) as Preferences,
    'org.self': (_input, conn) => reads.org(conn.variant),
    'onboarding.flags': (_input, conn) => reads.onboarding(conn.variant),
    'notifications.page': (input, conn) => reads.notificationsPage(input.page, conn.variant),
    'notifications.markRead': async (input, conn) => {
      await outbox.enqueue('notifications.markRead', input, conn.variant);
    },
    'log.debug': async (input, conn) => {
      await outbox.enqueue('log.debug', input, conn.variant);
    },
    'analytics.report': async (input, conn) => {
      // Once per session (000 §7): later reports in the same session are dropped here.
      if (await session.claimAnalytics()) {
        await outbox.enqueue('analytics.report', input, conn.variant);
      }
    },

    'sync.pull': () => sync.pull(),
    'outbox.list': () => outbox.list(),
    'outbox.drain': () => outbox.drain(),
  };
}
