import { type Kysely, type Migration } from 'kysely';

/**
 * The ingest domain's schema (INGEST holds 0010-0011). Exported for registration by the sources
 * domain (server/sources/index.ts), which owns the sources the jobs read.
 */
export const ingestMigrations: Record<string, Migration> = {
  '0010-ingest-jobs': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('ingest_jobs')
        .addColumn('source_id', 'text', (c) =>
          c.primaryKey().references('sources.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('last_run_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('last_new', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // The runner asks "what is due" every second: by due time, from an index.
      await db.schema
        .createIndex('ingest_jobs_run_at')
        .on('ingest_jobs')
        .column('run_at')
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('ingest_jobs').ifExists().execute();
    },
  },
};
