import type { Kysely, Migration } from 'kysely';

/** The summaries' table (see tables.ts). */
export const summaryMigrations: Record<string, Migration> = {
  '0020-document-summaries': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('document_summaries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text')
        .addColumn('pdf_secret', 'text')
        .addColumn('error', 'text')
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('document_summaries_user_document', ['user_id', 'document_id'])
        .execute();
      // The runner's due jobs.
      await db.schema
        .createIndex('document_summaries_due')
        .on('document_summaries')
        .columns(['status', 'run_at'])
        .execute();
      await db.schema
        .createIndex('document_summaries_document')
        .on('document_summaries')
        .column('document_id')
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('document_summaries').ifExists().execute();
    },
  },
};
