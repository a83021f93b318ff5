/**
 * The summaries' table (migration 0020, summaries/migrations.ts), merged into db/schema.ts's
 * Database interface.
 */
declare module '../db/schema' {
  interface Database {
    /**
     * One summary of one user's uploaded document, and its job: PENDING (asked for, due at
     * `run_at`), PROCESSING (a runner holds the lease until `lease_until`), SUCCESS (the PDF is
     * in storage under `storage_key`, opened with `pdf_secret`) or FAILED (`error` in words).
     * UNIQUE (user_id, document_id).
     */
    document_summaries: {
      id: string;
      user_id: string;
      document_id: string;
      status: string;
      storage_key: string | null;
      /** The random secret of the summary PDF's link (a capability like a share key). */
      pdf_secret: string | null;
      error: string | null;
      run_at: string;
      lease_owner: string | null;
      lease_until: string | null;
      attempts: number;
      created_at: string;
      updated_at: string;
    };
  }
}

export {};
