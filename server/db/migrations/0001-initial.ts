import type { Kysely } from 'kysely';

/** Timestamps are ISO text and ids UUID text, so one definition fits SQLite and PostgreSQL. */
// Migrations see the schema as it was then, not today's types: hence `Kysely<unknown>`.
export const up = async (db: Kysely<unknown>): Promise<void> => {
  const s = db.schema;
  await s
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('organization_members')
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'user_id'])
    .execute();
  await s
    .createIndex('organization_members_user')
    .on('organization_members')
    .column('user_id')
    .execute();

  for (const table of ['id_tokens', 'refresh_tokens'] as const) {
    await s
      .createTable(table)
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await s.createIndex(`${table}_user`).on(table).column('user_id').execute();
    await s.createIndex(`${table}_family`).on(table).column('family_id').execute();
    await s.createIndex(`${table}_expires`).on(table).column('expires_at').execute();
  }
  await s
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  await s
    .createTable('preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('feature_flag_defaults')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('feature_flag_overrides')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_flag_overrides_pk', ['user_id', 'name'])
    .execute();
  await s
    .createTable('onboarding_flags')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('show_attributes_form', 'integer', (c) => c.notNull())
    .addColumn('show_search_modal', 'integer', (c) => c.notNull())
    .execute();
  await s
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('notifications_user_created')
    .on('notifications')
    .columns(['user_id', 'created_at'])
    .execute();
  await s
    .createTable('idempotency_records')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['scope', 'method', 'path', 'key_hash'])
    .execute();
  await s
    .createIndex('idempotency_records_created')
    .on('idempotency_records')
    .column('created_at')
    .execute();
  await s
    .createTable('changes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('changes_pk', ['user_id', 'seq'])
    .execute();
  await s
    .createTable('debug_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('analytics_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  for (const table of [
    'analytics_reports',
    'debug_logs',
    'changes',
    'idempotency_records',
    'notifications',
    'onboarding_flags',
    'feature_flag_overrides',
    'feature_flag_defaults',
    'preferences',
    'password_resets',
    'refresh_tokens',
    'id_tokens',
    'organization_members',
    'users',
    'organizations',
    'meta',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
};
