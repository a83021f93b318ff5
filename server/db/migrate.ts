import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-auth-attempts';
import * as m0003 from './migrations/0003-debug-log-expired-token';
import type { Database } from './schema';

/** Every migration, in order. A static list: no file-system globbing, so bundling is safe. */
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-auth-attempts': m0002,
  '0003-debug-log-expired-token': m0003,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's name. */
export const migrateToLatest = async (db: Kysely<Database>): Promise<string[]> => {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`database migration failed${name}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
};
