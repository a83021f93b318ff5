import type { OpenAPIHono } from '@hono/zod-openapi';
import { changesAfter } from '../changes';
import type { AppDeps, AppEnv } from '../context';
import { defineEndpoint } from './define';

/** GET /sync/changes: the worker pulls what changed after its cursor. */
export const registerSyncRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'changes', async (c, { query, auth }) =>
    changesAfter(c.var.db, auth.user.id, query.after, query.limit),
  );
};
