import type { Db } from './schema';

/**
 * Runs `fn` in a transaction, or inside the caller's if `db` already is one (Kysely cannot nest
 * transactions). Request handlers use `transact` (context.ts) instead.
 */
export const inTransaction = <T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);

/** A unique-constraint violation, from SQLite or PostgreSQL. */
export const isUniqueViolation = (err: unknown): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
};
