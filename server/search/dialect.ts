import { SqliteAdapter, type Kysely } from 'kysely';

/**
 * Whether a handle (or a transaction, or the migrator's Kysely<unknown>) talks to SQLite. The
 * server passes its dialect name around explicitly; the engine is handed only a handle, so it
 * reads the dialect from the handle's adapter (PGlite's dialect uses PostgreSQL's adapter).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the migrator's too
export const isSqlite = (db: Kysely<any>): boolean =>
  db.getExecutor().adapter instanceof SqliteAdapter;
