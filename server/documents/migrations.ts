import { sql, type Kysely, type Migration } from 'kysely';

/** The documents domain's schema: documents, feed entries, read marks and the content counter. */
export const documentMigrations: Record<string, Migration> = {
  '0008-documents': {
    up: async (db: Kysely<unknown>) => {
      const s = db.schema;
      await s
        .createTable('content_counters')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into content_counters (name, value) values ('content', 0)`.execute(db);
      await s
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) =>
          c.notNull().references('sources.id').onDelete('cascade'),
        )
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('unix', 'integer', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('plain_text', 'text', (c) => c.notNull())
        .addColumn('category_tab', 'text', (c) => c.notNull())
        .addColumn('market', 'text')
        .addColumn('company_name', 'text')
        .addColumn('security_code', 'text')
        .addColumn('security_id', 'text')
        .addColumn('category', 'text')
        .addColumn('secondary_category', 'text')
        .addColumn('categories', 'text', (c) => c.notNull())
        .addColumn('thumbnail', 'text')
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        // The database refuses a duplicate, even from another process.
        .addUniqueConstraint('documents_source_dedupe', ['source_id', 'dedupe_key'])
        .execute();
      // Following a source, or building a feed over it, reads its documents in seq order.
      await s
        .createIndex('documents_source_seq')
        .on('documents')
        .columns(['source_id', 'seq'])
        .execute();
      await s
        .createTable('feed_entries')
        .addColumn('feed_id', 'text', (c) => c.notNull())
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('unix', 'integer', (c) => c.notNull())
        .addColumn('tab', 'text', (c) => c.notNull())
        .addColumn('company', 'text')
        .addColumn('category', 'text')
        .addColumn('entry_seq', 'integer', (c) => c.notNull())
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('feed_entries_pk', ['feed_id', 'document_id'])
        .execute();
      // after_seq pages; newest-first pages; newest-first pages within a tab.
      await s
        .createIndex('feed_entries_seq')
        .on('feed_entries')
        .columns(['feed_id', 'entry_seq'])
        .execute();
      await s
        .createIndex('feed_entries_newest')
        .on('feed_entries')
        .columns(['feed_id', 'removed', 'unix', 'document_id'])
        .execute();
      await s
        .createIndex('feed_entries_tab')
        .on('feed_entries')
        .columns(['feed_id', 'removed', 'tab', 'unix', 'document_id'])
        .execute();
      // Deleting a document deletes its entries without scanning every feed.
      await s
        .createIndex('feed_entries_document')
        .on('feed_entries')
        .column('document_id')
        .execute();
      await s
        .createTable('read_marks')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('mark_seq', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('read_marks_pk', ['user_id', 'document_id'])
        .execute();
      await s
        .createIndex('read_marks_seq')
        .on('read_marks')
        .columns(['user_id', 'mark_seq'])
        .execute();
      await s.createIndex('read_marks_document').on('read_marks').column('document_id').execute();
    },
    down: async (db: Kysely<unknown>) => {
      for (const table of ['read_marks', 'feed_entries', 'documents', 'content_counters']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
};
