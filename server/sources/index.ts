import { ensureCatalogue } from '../catalogue';
import { defineServerDomain } from '../domain';
import { sourceMigrations } from './migrations';
import { registerSourceRoutes } from './routes';
import { seedSources } from './seed';

/**
 * Sources: the catalogue (presets and built-ins, written on every start), what each user
 * follows, and the sources a user adds by address (private to them). Registers ingestion's
 * migrations too, since its jobs are per source.
 */
export const sourcesDomain = defineServerDomain({
  name: 'sources',
  register: registerSourceRoutes,
  migrations: sourceMigrations,
  prepare: (db, { product }) => ensureCatalogue(db, product),
  seed: seedSources,
});
