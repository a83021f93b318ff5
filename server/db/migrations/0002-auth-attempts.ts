import type { Kysely } from 'kysely';

/**
 * Failed sign-ins and sent reset mails, one row each, counted in sliding windows (throttle.ts).
 * In the database rather than in memory so the limits hold across restarts and across several
 * API servers sharing one PostgreSQL.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .createTable('auth_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auth_attempts_subject')
    .on('auth_attempts')
    .columns(['kind', 'subject', 'created_at'])
    .execute();
  await db.schema
    .createIndex('auth_attempts_created')
    .on('auth_attempts')
    .column('created_at')
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.dropTable('auth_attempts').ifExists().execute();
};
