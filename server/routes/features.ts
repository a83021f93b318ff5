import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { flagsFor } from '../flags';
import { defineEndpoint } from './define';

/** /feature/config: defaults with the caller's overrides on top. */
export const registerFeatureRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'featureConfig', async (c, { auth }) => ({
    results: await flagsFor(c.var.db, auth.user.id),
  }));
};
