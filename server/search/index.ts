import { defineServerDomain } from '../domain';
import { searchMigrations } from './migrations';
import { registerSearchRoutes } from './routes';

/**
 * Search: one engine on SQLite FTS5 or PostgreSQL full-text (engines.ts), fed at ingest by
 * content/store.ts; the calls of contract/search.ts over what a user may see (scope.ts),
 * with category-tab counts, facets, spelling correction and highlights.
 */
export const searchDomain = defineServerDomain({
  name: 'search',
  register: registerSearchRoutes,
  migrations: searchMigrations,
});

// What other folders may import (eslint.config.js: only through this file).
export {
  isEmptyScope,
  OPEN_FILTER,
  type PassageHit,
  type SearchExpr,
  type SearchScope,
} from './engine';
export { engineFor } from './engines';
export {
  documentsOfEntity,
  entitiesByAlias,
  entitiesOfDocuments,
  entitiesStartingWith,
  isCommonNameWord,
  nameWords,
  normalizedNameWord,
} from './entities';
export { highlightText, matchTerms } from './highlight';
export { splitPassages } from './passages';
export { searchScope } from './scope';
export { isTableRow, type SentenceSpan, splitSentences } from './sentences';
export { searchHandle } from './yielding';
