import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { routesFor } from '../http/define';
import { noStorage, uploadDepsOf } from './context';
import { eligibility, storageStanding } from './pricing';

/**
 * The user's standing on their plan (contract/uploads.ts): storage used, the pricing gate's
 * messages, the storage limit check and the customer portal link.
 */
export const registerAccountRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('uploads', app, deps.product);
  const need = () => {
    const u = uploadDepsOf(deps);
    if (!u) throw noStorage();
    return u;
  };

  on('userStorage', async (c, { auth }) => {
    const u = need();
    const s = await storageStanding(c.var.db, auth.user.id, u.settings);
    return {
      results: { used_bytes: s.used, limit_bytes: s.limit, file_count: s.files, plan: s.plan.name },
    };
  });

  on('pricingMessaging', async (c, { auth }) => {
    const u = need();
    return { results: await eligibility(c.var.db, auth.user.id, u.settings) };
  });

  on('storageLimit', async (c, { auth }) => {
    const u = need();
    const s = await storageStanding(c.var.db, auth.user.id, u.settings);
    return {
      results: {
        isEligible: s.used < s.limit,
        used_bytes: s.used,
        limit_bytes: s.limit,
        remaining_bytes: s.remaining,
        plan: s.plan.name,
      },
    };
  });

  on('customerPortal', async () => ({
    results: { session_url: need().settings.customerPortalUrl ?? null },
  }));
};
