import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { routesFor } from '../http/define';
import { changesAfter } from './changes';

/** GET /sync/changes: the worker pulls what changed after its cursor. */
export const registerSyncRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('sync', app, deps.product);
  on('changes', async (c, { query, auth }) =>
    changesAfter(c.var.db, auth.user.id, query.after, query.limit),
  );
};
