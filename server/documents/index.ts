import './tables';
import { defineServerDomain } from '../domain';
import { documentMigrations } from './migrations';
import { registerDocumentRoutes } from './routes';

/**
 * Documents: the one model every feature reads, previews and read state. They arrive through
 * the write pipeline above it (content/store.ts `insertDocuments`); the demo corpus that seeds
 * them is demo/, attached in server/domains.ts.
 */
export const documentsDomain = defineServerDomain({
  name: 'documents',
  register: registerDocumentRoutes,
  migrations: documentMigrations,
});

// What other folders may import (eslint.config.js: only through this file).
export { CARD_COLUMNS, type CardRow, toCard } from './cards';
export type { IncomingDocument } from './incoming';
export { markFeedRead, setReadState, visibleDocuments } from './queries';
export { absoluteUrl, htmlToText, sanitizeHtml } from './sanitize';
export { lockContent, reserveSeqs } from './sequence';
