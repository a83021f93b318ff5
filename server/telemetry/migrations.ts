import type { Kysely, Migration } from 'kysely';

/** The telemetry domain's schema changes (names are global and permanent: server/domain.ts). */
export const telemetryMigrations: Record<string, Migration> = {
  /**
   * POST /debug-logs takes a log sent with an expired or revoked id token (the worker reports
   * a failed refresh with the token it has left); the row says so.
   */
  '0003-debug-log-expired-token': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .alterTable('debug_logs')
        .addColumn('expired_token', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('debug_logs').dropColumn('expired_token').execute();
    },
  },
};
