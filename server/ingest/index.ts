/**
 * Ingestion's public surface: reading sources from the web (fetch, feeds, websites, filings),
 * its jobs and their schedule, the probe of an address, the filings presets. It stores nothing
 * itself: content/runner.ts hands what it reads to the write pipeline.
 */
export { type FetchOptions, userAgentFor } from './fetch';
export { describeError } from './fetch-error';
export { type ClaimedJob, claimJobs, ensureJobs, LeaseLost, updateLeasedJob } from './jobs';
export { ingestMigrations } from './migrations';
export { yieldToLoop } from './parse-feed';
export { FILINGS_PRESETS, filingsPreset } from './presets';
export { probeUrl } from './probe';
export { readSource } from './read';
export { ingestionStatus, scheduleSoon } from './schedule';
