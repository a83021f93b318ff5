import type { Kysely } from 'kysely';

/**
 * POST /debug-logs takes a log sent with an expired or revoked id token (the worker reports a
 * failed refresh with the token it has left); the row says so.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('debug_logs')
    .addColumn('expired_token', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('debug_logs').dropColumn('expired_token').execute();
};
