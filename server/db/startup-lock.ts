import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';

/** Runs `fn` while no other server on the same database runs its own start-up. */
export type StartupLock = <T>(fn: () => Promise<T>) => Promise<T>;

/** The advisory lock key every server of this product takes for its start-up (any int8). */
const STARTUP_LOCK_KEY = '7305201500001';
const SQLITE_LOCK_WAIT_MS = 120_000;
const SQLITE_LOCK_POLL_MS = 25;

/**
 * PostgreSQL: a session advisory lock held on one pooled connection while `fn` migrates and
 * seeds through the others. Servers started together take turns; the lock goes with the
 * session if a server dies holding it.
 */
export const postgresStartupLock =
  (pool: pg.Pool): StartupLock =>
  async (fn) => {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1::bigint)', [STARTUP_LOCK_KEY]);
      try {
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1::bigint)', [STARTUP_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  };

/**
 * SQLite: a write transaction held on a file of its own beside the database (the database's
 * own lock would also stop this process's migrations). Other processes, and other servers in
 * this one, wait for it by polling (better-sqlite3 would block the event loop while waiting).
 * The operating system drops the lock if the process dies.
 */
export const sqliteStartupLock =
  (file: string): StartupLock =>
  async (fn) => {
    const lock = new SqliteDatabase(file);
    try {
      lock.pragma('busy_timeout = 0');
      const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
      for (;;) {
        try {
          lock.exec('BEGIN EXCLUSIVE');
          break;
        } catch (err) {
          const busy = (err as { code?: string }).code === 'SQLITE_BUSY';
          if (!busy || Date.now() >= deadline) throw err;
          await sleep(SQLITE_LOCK_POLL_MS);
        }
      }
      try {
        return await fn();
      } finally {
        lock.exec('ROLLBACK');
      }
    } finally {
      lock.close();
    }
  };
