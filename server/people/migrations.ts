import type { Kysely, Migration } from 'kysely';

/** The people domain's schema: the user's people and their contacts. */
export const peopleMigrations: Record<string, Migration> = {
  '0027-people': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('people')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('people_pk', ['user_id', 'id'])
        .execute();
      await db.schema
        .createTable('people_contacts')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('person_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('contact_key', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('contact_name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        // The database refuses one contact held by two people of a user.
        .addPrimaryKeyConstraint('people_contacts_pk', ['user_id', 'source', 'contact_key'])
        .addForeignKeyConstraint(
          'people_contacts_person',
          ['user_id', 'person_id'],
          'people',
          ['user_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('people_contacts_person')
        .on('people_contacts')
        .columns(['user_id', 'person_id'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('people_contacts').ifExists().execute();
      await db.schema.dropTable('people').ifExists().execute();
    },
  },
};
