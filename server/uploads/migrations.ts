import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The uploads domain's schema. 0017: uploaded files (the processing jobs), uploads feeds,
 * share keys, page positions of passages (document_regions, and nullable `page`, `box`,
 * `page_width`, `page_height` on the search index's document_passages, filled for uploaded
 * documents). 0018: the organisation's plan (pricing gate; limits are configuration).
 */
export const uploadMigrations: Record<string, Migration> = {
  '0017-uploads': {
    up: async (db: Kysely<unknown>) => {
      const s = db.schema;
      await s
        .createTable('upload_feeds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('report_name', 'text')
        .addColumn('report_type', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s
        .createTable('upload_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('report_type', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint')
        .addColumn('declared_size', 'bigint')
        .addColumn('transfer_hash', 'text')
        .addColumn('transfer_expires', 'text')
        .addColumn('feed_id', 'text', (c) => c.references('upload_feeds.id').onDelete('set null'))
        .addColumn('document_id', 'text', (c) => c.references('documents.id').onDelete('set null'))
        .addColumn('error', 'text')
        .addColumn('num_pages', 'integer')
        .addColumn('run_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The drive (newest first), a feed's files, the runner's due jobs, a document's file.
      await s
        .createIndex('upload_files_user')
        .on('upload_files')
        .columns(['user_id', 'created_at'])
        .execute();
      await s.createIndex('upload_files_feed').on('upload_files').column('feed_id').execute();
      await s
        .createIndex('upload_files_due')
        .on('upload_files')
        .columns(['status', 'run_at'])
        .execute();
      await s
        .createIndex('upload_files_document')
        .on('upload_files')
        .column('document_id')
        .execute();
      await s
        .createTable('document_shares')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await s
        .createIndex('document_shares_document')
        .on('document_shares')
        .column('document_id')
        .execute();
      await s
        .createTable('document_regions')
        .addColumn('document_id', 'text', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('span_start', 'integer', (c) => c.notNull())
        .addColumn('span_end', 'integer', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('x0', 'real')
        .addColumn('y0', 'real')
        .addColumn('x1', 'real')
        .addColumn('y1', 'real')
        .addColumn('page_width', 'real')
        .addColumn('page_height', 'real')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('text'))
        .addPrimaryKeyConstraint('document_regions_pk', ['document_id', 'ordinal'])
        .execute();
      // A passage's page and box, for citations of uploaded documents (null elsewhere).
      await s.alterTable('document_passages').addColumn('page', 'integer').execute();
      await s.alterTable('document_passages').addColumn('box', 'text').execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('document_passages').dropColumn('box').execute();
      await db.schema.alterTable('document_passages').dropColumn('page').execute();
      for (const table of ['document_regions', 'document_shares', 'upload_files', 'upload_feeds']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
  '0018-organization-plan': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .alterTable('organizations')
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo(sql.lit('free')))
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('organizations').dropColumn('plan').execute();
    },
  },
};
