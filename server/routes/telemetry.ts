import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../context';
import { iso } from '../time';
import { defineEndpoint } from './define';

/** POST /debug-logs and POST /{product}-analytics/report: stored for the operator. */
export const registerTelemetryRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'debugLogs', async (c, { body, auth }) => {
    await c.var.db
      .insertInto('debug_logs')
      .values({
        id: randomUUID(),
        user_id: auth.user.id,
        data: typeof body.logData === 'string' ? body.logData : JSON.stringify(body.logData),
        created_at: iso(deps.now()),
      })
      .execute();
    return { ok: true as const };
  });

  defineEndpoint(app, deps.product, 'analyticsReport', async (c, { body, auth }) => {
    await c.var.db
      .insertInto('analytics_reports')
      .values({
        id: randomUUID(),
        user_id: auth.user.id,
        event_name: body.mp_info.event_name,
        payload: JSON.stringify(body),
        created_at: iso(deps.now()),
      })
      .execute();
    return { ok: true as const };
  });
};
