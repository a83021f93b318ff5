import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { routesFor } from '../http/define';
import { changesAfter } from './changes';
import { registerLiveRoute } from './live';

/**
 * GET /sync/changes: the worker pulls what changed after its cursor. GET /sync/live: the signal
 * that there is something to pull (server-sent events, live.ts).
 */
export const registerSyncRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('sync', app, deps.product);
  on('changes', async (c, { query, auth }) =>
    changesAfter(c.var.db, auth.user.id, query.after, query.limit),
  );
  registerLiveRoute(app, deps);
};
