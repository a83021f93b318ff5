import type { Kysely, Migration } from 'kysely';

/**
 * The notifications domain's schema changes. Its table dates from 0001-initial (written before
 * domains had folders); what it adds since lives here, under the next free global number.
 */
export const notificationMigrations: Record<string, Migration> = {
  /** The unread count is asked with every page: count it from an index, not the rows. */
  '0006-notifications-unread': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createIndex('notifications_user_read')
        .on('notifications')
        .columns(['user_id', 'read'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropIndex('notifications_user_read').ifExists().execute();
    },
  },
};
