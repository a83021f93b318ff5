import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { defineEndpoint } from './define';

/** GET /health: answered once migrations ran, since the server listens only after them. */
export const registerHealthRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'health', async () => ({
    status: 'ok' as const,
    product: deps.product,
    database: deps.dialect,
  }));
};
