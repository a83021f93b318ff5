import './tables';
import { defineServerDomain } from '../domain';
import { documentMigrations } from './migrations';
import { registerDocumentRoutes } from './routes';
import { seedDocuments } from './seed';

/**
 * Documents: the one model every feature reads (store.ts `insertDocuments` is how they arrive:
 * sanitised, de-duplicated, fanned out to feeds), previews, read state and the demo corpus.
 */
export const documentsDomain = defineServerDomain({
  name: 'documents',
  register: registerDocumentRoutes,
  migrations: documentMigrations,
  seed: seedDocuments,
});
