import type { Kysely, Migration } from 'kysely';

/** The notebooks domain's schema: the user's notebooks and the notes in them. */
export const notebookMigrations: Record<string, Migration> = {
  '0025-notebooks': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('notebooks')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notebooks_pk', ['user_id', 'id'])
        // The database refuses a second notebook of the same name (case-insensitively) per user.
        .addUniqueConstraint('notebooks_name', ['user_id', 'name_key'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('notebooks').ifExists().execute();
    },
  },
  '0026-notes': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('notes')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('notebook_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('plain_text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notes_pk', ['user_id', 'id'])
        .addForeignKeyConstraint(
          'notes_notebook',
          ['user_id', 'notebook_id'],
          'notebooks',
          ['user_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      // A notebook's notes, newest first.
      await db.schema
        .createIndex('notes_by_notebook')
        .on('notes')
        .columns(['user_id', 'notebook_id', 'created_at'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('notes').ifExists().execute();
    },
  },
};
