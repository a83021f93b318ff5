import { defineServerDomain } from '../domain';
import { searchMigrations } from './migrations';
import { registerSearchRoutes } from './routes';

/**
 * Search: one engine on SQLite FTS5 or PostgreSQL full-text (engines.ts), fed at ingest by
 * documents/store.ts; the calls of contract/search.ts over what a user may see (scope.ts),
 * with category-tab counts, facets, spelling correction and highlights.
 */
export const searchDomain = defineServerDomain({
  name: 'search',
  register: registerSearchRoutes,
  migrations: searchMigrations,
});
