import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import { markRead, notificationsPage } from './queries';

/**
 * The endpoints of contract/notifications.ts: GET /notifications (20 a page, newest first) and
 * POST /notifications/read. Reads use `c.var.db`; writes go through `transact`.
 */
export const registerNotificationRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('notifications', app, deps.product);

  on('notifications', async (c, { query, auth }) =>
    notificationsPage(c.var.db, auth.user.id, query.page),
  );

  on('markNotificationsRead', async (c, { body, auth }) => ({
    updated: await transact(c, (db) => markRead(db, auth.user.id, body.ids, deps.now())),
  }));
};
