import type { Kysely, Migration } from 'kysely';
import { ingestMigrations } from '../ingest';

/** The sources domain's schema; ingestion's jobs (0010-0011) read these rows, so they register here. */
export const sourceMigrations: Record<string, Migration> = {
  '0007-sources': {
    up: async (db: Kysely<unknown>) => {
      const s = db.schema;
      await s
        .createTable('sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('site_url', 'text')
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('category_tab', 'text', (c) => c.notNull())
        .addColumn('market', 'text')
        .addColumn('grp', 'text')
        .addColumn('thumbnail', 'text')
        .addColumn('flag', 'text', (c) => c.notNull())
        .addColumn('public', 'integer', (c) => c.notNull())
        .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await s.createIndex('sources_owner').on('sources').column('owner_user_id').execute();
      await s
        .createTable('source_follows')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source_id', 'text', (c) =>
          c.notNull().references('sources.id').onDelete('cascade'),
        )
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('source_follows_pk', ['user_id', 'source_id'])
        .execute();
      // A new document fans out to its source's followers: found from this index.
      await s
        .createIndex('source_follows_source')
        .on('source_follows')
        .column('source_id')
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('source_follows').ifExists().execute();
      await db.schema.dropTable('sources').ifExists().execute();
    },
  },
  ...ingestMigrations,
};
