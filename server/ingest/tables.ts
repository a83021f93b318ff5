/**
 * The ingest domain's table, merged into db/schema.ts's Database interface (as
 * notifications/tables.ts does). One row per source read from the network; the sources,
 * documents and follows it reads are CONTENT's tables (server/sources, server/documents).
 */
declare module '../db/schema' {
  interface Database {
    ingest_jobs: {
      /** The source read (sources.id); one job each. */
      source_id: string;
      /** pending (never run), running (leased), ok, error. */
      state: 'pending' | 'running' | 'ok' | 'error';
      /** When the job is next due (ISO). */
      run_at: string;
      /** The runner holding the job, and until when (ISO); a lapsed lease is free to take. */
      lease_owner: string | null;
      lease_until: string | null;
      /** Failures in a row (back-off grows with it); 0 after a good run. */
      attempts: number;
      /** Validators of the last 200 answer, sent back for a conditional GET. */
      etag: string | null;
      last_modified: string | null;
      last_run_at: string | null;
      /** What went wrong in words a user can act on; null after a good run. */
      last_error: string | null;
      last_new: number;
      created_at: string;
    };
  }
}

export {};
