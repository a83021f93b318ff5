import type { Kysely, Migration } from 'kysely';

/** The auth domain's schema changes (names are global and permanent: see server/domain.ts). */
export const authMigrations: Record<string, Migration> = {
  /**
   * Sign-in attempts and sent reset mails, one row each, counted in sliding windows
   * (throttle.ts). In the database rather than in memory so the limits hold across restarts
   * and across several API servers sharing one PostgreSQL.
   */
  '0002-auth-attempts': {
    up: async (db: Kysely<unknown>) => {
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
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('auth_attempts').ifExists().execute();
    },
  },
  /**
   * A sign-in is written down before its password check as pending, and becomes a failure only
   * if the check fails (a success is struck off): see sign-in-throttle.ts.
   */
  '0005-auth-attempt-pending': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .alterTable('auth_attempts')
        .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('auth_attempts').dropColumn('pending').execute();
    },
  },
};
