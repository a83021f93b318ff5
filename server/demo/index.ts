/**
 * The demo corpus (corpus*.ts: made-up companies' news, filings and research, streamed by
 * `corpusItems` to any size) and its seed, attached to the documents domain in server/domains.ts
 * (it writes through the pipeline, above documents).
 */
export { corpusItems, generateCorpus, type CorpusOptions, type CorpusSource } from './corpus';
export { DEMO_CORPUS_SEED, DEMO_DOCS_PER_SOURCE, seedDocuments } from './seed';
