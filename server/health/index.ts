import { defineServerDomain } from '../domain';
import { routesFor } from '../http/define';

/** GET /health: answered once migrations ran, since the server listens only after them. */
export const healthDomain = defineServerDomain({
  name: 'health',
  register: (app, deps) => {
    routesFor(
      'health',
      app,
      deps.product,
    )('health', async () => ({
      status: 'ok' as const,
      product: deps.product,
      database: deps.dialect,
    }));
  },
});
