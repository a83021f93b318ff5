import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, DialectName } from './schema';
import { postgresStartupLock, sqliteStartupLock, type StartupLock } from './startup-lock';

export type OpenDatabaseOptions = {
  /** SQLite lives at `<dataDir>/workspace.db` unless a PostgreSQL URL or PGlite is asked for. */
  dataDir?: string;
  databaseUrl?: string;
  /** In-memory PGlite PostgreSQL: tests only. */
  pglite?: boolean;
};

export type OpenedDatabase = {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data is, for the start-up log (no password). */
  location: string;
  /**
   * Runs `fn` while no other server on this database runs its own start-up (migrations and
   * the seed): see startup-lock.ts.
   */
  exclusive: StartupLock;
};

const alone: StartupLock = (fn) => fn();

export const openDatabase = async (opts: OpenDatabaseOptions): Promise<OpenedDatabase> => {
  if (opts.pglite) {
    // A test-only package (devDependencies): imported only when asked for.
    const [{ PGlite }, { PGliteDialect }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('kysely-pglite-dialect'),
    ]);
    const pglite = await PGlite.create();
    return {
      db: new Kysely<Database>({ dialect: new PGliteDialect(pglite) }),
      dialect: 'postgres',
      location: 'PGlite (in memory)',
      // In memory, in this process: nobody else can start on it.
      exclusive: alone,
    };
  }
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const url = new URL(opts.databaseUrl);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}`,
      exclusive: postgresStartupLock(pool),
    };
  }
  const dataDir = opts.dataDir ?? './data';
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'workspace.db');
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers run beside the writer; busy_timeout waits out another process's lock
  // instead of failing at once; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
    location: file,
    exclusive: sqliteStartupLock(`${file}.startup-lock`),
  };
};
