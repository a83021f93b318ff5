/**
 * The uploads domain's tables (migrations 0017-0018, uploads/migrations.ts), merged into
 * db/schema.ts's Database interface.
 */
declare module '../db/schema' {
  interface Database {
    /**
     * One uploaded file: its bytes in storage under `key`, and the durable processing job
     * (status PROCESSING with a lease; see jobs.ts). PK `key`.
     */
    upload_files: {
      key: string;
      user_id: string;
      /** The client's id from upload init. */
      client_id: string;
      name: string;
      /** What the client declared (the content decides the type: magic bytes). */
      mime_type: string;
      source: string;
      report_type: string | null;
      /** UPLOADING, UPLOADED, PROCESSING, COMPLETED, FAILED. */
      status: string;
      /** Bytes stored; null before the transfer. */
      size: number | null;
      /** The bytes the client declared at init (signed into an S3 link), or null. */
      declared_size: number | null;
      /** SHA-256 of the local transfer link's secret (local storage only). */
      transfer_hash: string | null;
      transfer_expires: string | null;
      feed_id: string | null;
      document_id: string | null;
      /** Why it FAILED, in words. */
      error: string | null;
      num_pages: number | null;
      /** The job: due time, lease, attempts. */
      run_at: string | null;
      lease_owner: string | null;
      lease_until: string | null;
      attempts: number;
      created_at: string;
      updated_at: string;
    };
    /** An uploads feed made by upload complete (the assistant's attachmentsFeedId). */
    upload_feeds: {
      id: string;
      user_id: string;
      source: string;
      report_name: string | null;
      report_type: string | null;
      created_at: string;
    };
    /** Public access keys of a document (only SHA-256 hashes kept); revoked_at set = dead. */
    document_shares: {
      key_hash: string;
      document_id: string;
      user_id: string;
      created_at: string;
      revoked_at: string | null;
    };
    /**
     * Where each extracted passage of an uploaded document lies: [span_start, span_end) of the
     * document's plain text, its page (1-based; a sheet's number for XLSX, a slide's for PPTX)
     * and, for PDF, its box [x0, y0, x1, y1] in points from the page's top-left corner with the
     * page's size. What a citation's `document_highlight` is made from. PK (document_id, ordinal).
     */
    document_regions: {
      document_id: string;
      ordinal: number;
      span_start: number;
      span_end: number;
      page: number | null;
      x0: number | null;
      y0: number | null;
      x1: number | null;
      y1: number | null;
      page_width: number | null;
      page_height: number | null;
      kind: string;
    };
  }
}

export {};
