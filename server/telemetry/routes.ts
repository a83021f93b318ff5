import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import { iso } from '../time';

/**
 * POST /debug-logs and POST /{product}-analytics/report: stored for the operator. Bodies are
 * bounded by the contract (depth, size) before anything here serialises them.
 */
export const registerTelemetryRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('telemetry', app, deps.product);
  // A worker whose refresh failed reports it with the id token it has left, which by then has
  // expired (or was revoked): the log is kept, marked so, rather than refused with a 403 that
  // nobody would read. No token or an unknown one is still 401.
  on(
    'debugLogs',
    async (c, { body, auth }) => {
      await transact(c, (db) =>
        db
          .insertInto('debug_logs')
          .values({
            id: randomUUID(),
            user_id: auth.user.id,
            data: typeof body.logData === 'string' ? body.logData : JSON.stringify(body.logData),
            expired_token: c.var.auth ? 0 : 1,
            created_at: iso(deps.now()),
          })
          .execute(),
      );
      return { ok: true as const };
    },
    { acceptStaleToken: true },
  );

  on('analyticsReport', async (c, { body, auth }) => {
    await transact(c, (db) =>
      db
        .insertInto('analytics_reports')
        .values({
          id: randomUUID(),
          user_id: auth.user.id,
          event_name: body.mp_info.event_name,
          payload: JSON.stringify(body),
          created_at: iso(deps.now()),
        })
        .execute(),
    );
    return { ok: true as const };
  });
};
