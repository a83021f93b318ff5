import type { Kysely, Migration } from 'kysely';

/** The boards domain's schema: one row per custom or AI feed (entries are feed_entries rows). */
export const boardMigrations: Record<string, Migration> = {
  '0009-boards': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('boards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('definition', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('boards_user').on('boards').column('user_id').execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('boards').ifExists().execute();
    },
  },
};
