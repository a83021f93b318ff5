import type { Kysely, Migration } from 'kysely';

/** The assistant's schema: sessions (chats) and their messages (question and answer each). */
export const assistantMigrations: Record<string, Migration> = {
  '0012-assistant': {
    up: async (db: Kysely<unknown>) => {
      const s = db.schema;
      await s
        .createTable('assistant_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The history: a user's sessions, most recently active first.
      await s
        .createIndex('assistant_sessions_user')
        .on('assistant_sessions')
        .columns(['user_id', 'updated_at'])
        .execute();
      await s
        .createTable('assistant_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) =>
          c.notNull().references('assistant_sessions.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('data', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('feedback', 'text')
        .addColumn('feedback_message', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        // Two answers finishing at once in one session cannot take one place.
        .addUniqueConstraint('assistant_messages_session_seq', ['session_id', 'seq'])
        .execute();
      // Searching the history reads one user's messages, newest first.
      await s
        .createIndex('assistant_messages_user')
        .on('assistant_messages')
        .columns(['user_id', 'created_at'])
        .execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.dropTable('assistant_messages').ifExists().execute();
      await db.schema.dropTable('assistant_sessions').ifExists().execute();
    },
  },
  // Issue 17: a question is stored before its answer streams ('answering'), and the stream
  // says it is alive now and then; one not heard from for a while was left by a dead server.
  '0016-assistant-answering': {
    up: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('assistant_messages').addColumn('alive_at', 'text').execute();
    },
    down: async (db: Kysely<unknown>) => {
      await db.schema.alterTable('assistant_messages').dropColumn('alive_at').execute();
    },
  },
};
