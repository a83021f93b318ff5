import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import { flagsFor } from './flags';
import { organizationSelf, organizationsOf } from './organizations';
import { checkOverlayTypes, readPreferences, updatePreferences } from './preferences';

/**
 * The endpoints of contract/user.ts: organisations, preferences, feature flags (defaults with
 * the caller's overrides on top) and onboarding flags.
 */
export const registerUserRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('user', app, deps.product);

  on('organizations', async (c, { auth }) => organizationsOf(c.var.db, auth.user.id));
  on('organizationSelf', async (c, { auth }) => organizationSelf(c.var.db, auth.user));

  on('preferences', async (c, { auth }) => readPreferences(c.var.db, auth.user.id, deps.product));
  on('updatePreferences', async (c, { body, auth }) => {
    checkOverlayTypes(body, deps.product);
    return transact(c, (db) => updatePreferences(db, auth.user.id, body, deps.product, deps.now()));
  });

  on('featureConfig', async (c, { auth }) => ({
    results: await flagsFor(c.var.db, auth.user.id),
  }));

  on('onboardingFlags', async (c, { auth }) => {
    const row = await c.var.db
      .selectFrom('onboarding_flags')
      .selectAll()
      .where('user_id', '=', auth.user.id)
      .executeTakeFirst();
    return {
      show_attributes_form: row ? row.show_attributes_form === 1 : true,
      show_search_modal: row ? row.show_search_modal === 1 : true,
    };
  });
};
