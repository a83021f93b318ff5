import './tables';
import { defineServerDomain } from '../domain';
import { tagMigrations } from './migrations';
import { registerTagRoutes } from './routes';

/**
 * Tags and bookmarks (contract/tags.ts): the user's tags and their links to documents, every
 * query scoped to the user; each write records its change for the user's other tabs and devices.
 */
export const tagsDomain = defineServerDomain({
  name: 'tags',
  register: registerTagRoutes,
  migrations: tagMigrations,
});
