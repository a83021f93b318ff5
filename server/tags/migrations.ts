import type { Kysely, Migration } from 'kysely';

/** The tags domain's schema: the user's tags and their links to documents. */
export const tagMigrations: Record<string, Migration> = {
  '0022-user-tags': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('user_tags')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_tags_pk', ['user_id', 'id'])
        // The database refuses a second tag of the same name (case-insensitively) per user.
        .addUniqueConstraint('user_tags_name', ['user_id', 'name_key'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('user_tags').ifExists().execute();
    },
  },
  '0023-document-tags': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('document_tags')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_tags_pk', ['user_id', 'tag_id', 'document_id'])
        .addForeignKeyConstraint(
          'document_tags_tag',
          ['user_id', 'tag_id'],
          'user_tags',
          ['user_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('document_tags').ifExists().execute();
    },
  },
  /** A document's tags and the link pull read by (user, document). */
  '0024-document-tags-by-document': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createIndex('document_tags_user_document')
        .on('document_tags')
        .columns(['user_id', 'document_id'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropIndex('document_tags_user_document').ifExists().execute();
    },
  },
};
