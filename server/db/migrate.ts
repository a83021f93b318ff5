import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { ServerDomain } from '../domain';
import { serverDomains } from '../domains';
import * as m0001 from './migrations/0001-initial';
import type { Database } from './schema';

/**
 * The schema every domain started from, written before domains had folders; later changes
 * live in each domain's migrations.ts.
 */
const coreMigrations: Record<string, Migration> = { '0001-initial': m0001 };

/**
 * Every migration: the core one and each domain's, merged. Names are global: four digits and
 * a slug, each number used once, so name order is the order of writing (Kysely runs them in
 * name order and refuses a new one sorting before what a database already applied).
 */
export const allMigrations = (
  domains: readonly ServerDomain[] = serverDomains,
): Record<string, Migration> => {
  const all: Record<string, Migration> = { ...coreMigrations };
  const byNumber = new Map(Object.keys(all).map((name) => [name.slice(0, 4), name]));
  for (const domain of domains) {
    for (const [name, migration] of Object.entries(domain.migrations ?? {})) {
      if (!/^\d{4}-[a-z0-9-]+$/.test(name)) {
        throw new Error(`migration "${name}" (${domain.name}) must be named NNNN-slug`);
      }
      const taken = byNumber.get(name.slice(0, 4));
      if (taken) {
        throw new Error(`migration "${name}" (${domain.name}) reuses the number of "${taken}"`);
      }
      byNumber.set(name.slice(0, 4), name);
      all[name] = migration;
    }
  }
  return all;
};

/** Brings the schema up to date; throws with the failing migration's name. */
export const migrateToLatest = async (
  db: Kysely<Database>,
  domains: readonly ServerDomain[] = serverDomains,
): Promise<string[]> => {
  const migrations = allMigrations(domains);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`database migration failed${name}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
};
