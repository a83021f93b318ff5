/**
 * The write pipeline: `insertDocuments` (store.ts), the only way documents arrive (sanitised,
 * de-duplicated, numbered, indexed for search, fanned out to feeds), and the ingestion runner
 * that feeds it from due jobs (runner.ts). Above documents, search and feeds.
 */
export { createIngestRunner } from './runner';
export { insertDocuments } from './store';
