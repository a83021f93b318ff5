import type { Kysely, Migration } from 'kysely';

/** The sync domain's schema changes (names are global and permanent: see server/domain.ts). */
export const syncMigrations: Record<string, Migration> = {
  /** The compaction floor (sync/compaction.ts): changes up to it are gone. */
  '0004-change-floor': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .alterTable('users')
        .addColumn('change_floor', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('users').dropColumn('change_floor').execute();
    },
  },
};
