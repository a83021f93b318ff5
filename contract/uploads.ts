import { z } from 'zod';
import { Ok } from './common';
import { defineDomain, endpoint, id, text } from './define';
import { DocResult } from './documents';

/**
 * Uploads (issue 20; 001 §1-9, 002 §3, §7, 000 §6): the upload configuration, upload init, the
 * transfer of each file to its `upload_link`, upload complete (a new uploads feed, or add and
 * remove on one), the processing status the worker polls, the user's storage, a document's
 * share key, download and delete, and the pricing gate (`/stripe/messaging`,
 * `/stripe/limit/storage`).
 *
 * Designed here where the spec says "not shown":
 * - The transfer. The spec's client POSTs a multipart form (metadata_fields plus the file) to
 *   `upload_link`. Here the transfer is ONE raw `PUT` of the file's bytes to `upload_link` with
 *   exactly the `headers` given (`method` says so): S3-compatible storage answers a presigned
 *   PUT link (every S3, MinIO and R2 signs those), the local disk a link to this server's own
 *   streaming endpoint (`UPLOAD_TRANSFER_PATH`, authorised by the secret in the link, so no
 *   token header is sent; 413 past `file_size_limit`, 415 when the first bytes are none of
 *   the allowed types). A link is valid for `UPLOAD_LINK_TTL_S`. `upload_link` is absolute for
 *   S3 and a path on this server (starting `/api/`) for the local disk.
 * - `size` on each init file (optional): with it the server refuses an oversized file at init
 *   (413) and signs the length into an S3 link.
 * - The status call (`GET /upload/status`), the list of the user's uploads (`GET /upload/files`).
 * - Download (`GET /doc/{source}/download?deeplink=`: the original bytes, streamed, with
 *   Content-Disposition; not JSON, so not in the endpoint catalogue: `UPLOAD_RAW_ROUTES`),
 *   delete (`DELETE /doc/{source}?deeplink=`), revoking a share
 *   (`DELETE /doc/{source}/share?deeplink=`).
 * - Share is the spec's `GET /doc/{source}?deeplink&access_key&share=true` (002 §7), answered
 *   with `results[0].public_access_key` (`ShareResult`); the same path with `public_access_key`
 *   and no token opens the shared document signed out (`DocResult`). Both ride on the documents
 *   domain's GET /doc/{source} (contract/documents.ts) and are answered by the uploads server
 *   domain ahead of it; `ShareQuery` is their query.
 * - `/user/storage` and `/stripe/limit/storage` fields; the pricing message's fields follow the
 *   modal of 002 §9 (header, body, subtext with highlighted terms, action).
 */

/** The file types the assistant and the drive accept (001 §1, §5). */
export const UPLOAD_FILE_TYPES = [
  'pdf',
  'doc',
  'docx',
  'txt',
  'md',
  'ppt',
  'pptx',
  'xls',
  'xlsx',
] as const;
export type UploadFileType = (typeof UPLOAD_FILE_TYPES)[number];

/** The MIME type of each extension ("md becomes text/markdown", 001 §5). */
export const UPLOAD_MIME_BY_EXTENSION: Record<UploadFileType, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export const DEFAULT_MIME_TYPE = 'application/octet-stream';

/** Report types (001 §1); upload config and init take one for report documents (001 §7). */
export const REPORT_TYPES = [
  'maintenance_coverage',
  'credit_report',
  'initiation_coverage',
  'open_research',
  'drhp_report',
  'annual_report',
  'icra_credit_report',
] as const;
export const ReportType = z.enum(REPORT_TYPES);
export type ReportType = z.infer<typeof ReportType>;

/**
 * Statuses of an uploaded file (001 §3, 002 §3). The server writes UPLOADING (init), UPLOADED
 * (bytes stored), PROCESSING (complete confirmed: queued or being extracted), COMPLETED and
 * FAILED (with `error` in words); the client alone uses PENDING, PROCESSING_ERROR and
 * UPLOADING_ERROR ("Error getting upload configs", "Error uploading files").
 */
export const UPLOAD_STATUSES = [
  'UPLOADING',
  'UPLOADED',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'PROCESSING_ERROR',
  'UPLOADING_ERROR',
  'FAILED',
] as const;
export const UploadStatus = z.enum(UPLOAD_STATUSES);
export type UploadStatus = z.infer<typeof UploadStatus>;
/** Polling stops once every file is in one of these (001 §4). */
export const UPLOAD_FINAL_STATUSES: readonly UploadStatus[] = ['COMPLETED', 'FAILED'];

export const UPLOAD_ERROR_TEXT = {
  configs: 'Error getting upload configs',
  uploading: 'Error uploading files',
  toast: 'File(s) upload failed. Please try again.',
} as const;
/** Polling (001 §4, 002 §9): 5 s, doubling, stopping after 120 s accumulated. */
export const UPLOAD_POLL_START_MS = 5_000;
export const UPLOAD_POLL_CAP_MS = 120_000;
/** How long an upload link is valid. */
export const UPLOAD_LINK_TTL_S = 3600;
/** The local disk's transfer endpoint (PUT, raw bytes); `{key}` is the file's storage key. */
export const UPLOAD_TRANSFER_PATH = '/upload/file';
/** 001 §8, with the flag report_open_research. */
export const OPEN_RESEARCH_LIMIT_MB = 50;
export const openResearchText = (product: string) =>
  `Too large to upload here. Try ${product}Report Open Research for files over ${OPEN_RESEARCH_LIMIT_MB}MB.`;
export const removeFileErrorText = (name: string, message: string) =>
  `Error removing file: ${name} ${message}`;

// ---------------------------------------------------------------------------------------------
// Config
// ---------------------------------------------------------------------------------------------

export const UploadConfigQuery = z.object({
  source: text('source', 128).optional(),
  report_type: ReportType.optional(),
});

/** 001 §3 "Upload configuration". Cached forever by the client (001 §7). */
export const UploadConfig = z.object({
  /** Files at once (attachments, or a report's documents). */
  file_count_limit: z.number().int().positive(),
  /** In MB (bytes / 1048576), as the size check compares it (001 §5). */
  file_size_limit: z.number().positive(),
  /** Allowed MIME types (check 1 compares the file's type); empty: any. */
  file_types: z.array(z.string()),
  /** A report's name suffixes (check 3); empty: any. */
  file_name_suffixes: z.array(z.string()),
  allow_folder_upload: z.boolean(),
  /** MIME type to extension, for the file picker's accept list and labels. */
  mime_types: z.record(z.string(), z.string()),
});
export type UploadConfig = z.infer<typeof UploadConfig>;
export const UploadConfigResult = z.object({ config: UploadConfig });

// ---------------------------------------------------------------------------------------------
// Init, transfer, complete
// ---------------------------------------------------------------------------------------------

export const InitFile = z
  .object({
    /** The client's id of the file; required on every file (001 §5). */
    id: id('files[].id'),
    name: text('files[].name', 255).min(1, { message: 'files[].name must not be empty' }),
    mime_type: text('files[].mime_type', 255),
    /** Bytes; optional (see above). */
    size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();
export const UploadInitBody = z
  .object({
    source: text('source', 128),
    files: z
      .array(InitFile)
      .min(1, { message: 'files must not be empty' })
      .max(100, { message: 'files holds at most 100 files' }),
    report_type: ReportType.optional(),
  })
  .strict();
export type UploadInitBody = z.infer<typeof UploadInitBody>;

export const MetadataFields = z.object({ bucket: z.string(), key: z.string() });
/** 001 §3 per file. */
export const UploadLinkConfig = z.object({
  id: z.string(),
  upload_link: z.string(),
  metadata_fields: MetadataFields,
  /** Send exactly these with the transfer. */
  headers: z.record(z.string(), z.string()),
  method: z.literal('PUT'),
});
export type UploadLinkConfig = z.infer<typeof UploadLinkConfig>;
export const UploadInitResult = z.object({ upload_configs: z.array(UploadLinkConfig) });
export type UploadInitResult = z.infer<typeof UploadInitResult>;

/** The transfer's answer (local disk). */
export const UploadTransferResult = z.object({ key: z.string(), size: z.number().int() });

export const CompleteFile = z
  .object({
    bucket: text('files[].bucket', 255),
    key: text('files[].key', 512).min(1, { message: 'files[].key must not be empty' }),
    metadata: z
      .object({
        name: text('files[].metadata.name', 255),
        mime_type: text('files[].metadata.mime_type', 255),
        id: id('files[].metadata.id'),
      })
      .strict(),
  })
  .strict();
export type CompleteFile = z.infer<typeof CompleteFile>;
const completeFiles = z
  .array(CompleteFile)
  .min(1, { message: 'files must not be empty' })
  .max(100, { message: 'files holds at most 100 files' });

/** POST /upload/complete: a new uploads feed (001 §7). */
export const UploadCompleteBody = z
  .object({
    files: completeFiles,
    source: text('source', 128),
    report_name: text('report_name', 200).optional(),
    report_type: ReportType.optional(),
  })
  .strict();
export type UploadCompleteBody = z.infer<typeof UploadCompleteBody>;

/** PUT /upload/complete: add files to, or remove them from, an existing uploads feed. */
export const UploadCompletePutBody = z
  .object({
    files: completeFiles,
    action: z.enum(['add', 'remove']),
    source: text('source', 128),
    feed_id: id('feed_id'),
    report_name: text('report_name', 200).optional(),
    report_type: ReportType.optional(),
  })
  .strict();
export type UploadCompletePutBody = z.infer<typeof UploadCompletePutBody>;

/** An uploaded file as the server knows it (002 §3 "Uploaded file"). */
export const UploadedFile = z.object({
  /** The client's id from init. */
  id: z.string(),
  name: z.string(),
  mime_type: z.string(),
  bucket: z.string(),
  key: z.string(),
  status: UploadStatus,
  /** 0 until the bytes are stored, then 100. */
  progress: z.number().min(0).max(100),
  /** Bytes stored (null before the transfer). */
  size: z.number().int().nullable(),
  /** Why it FAILED, in words; null otherwise. */
  error: z.string().nullable(),
  /** The uploads feed it belongs to, once completed. */
  feed_id: z.string().nullable(),
  /** The stored document once COMPLETED (`/preview/{source}/{deeplink}`), else null. */
  deeplink: z.string().nullable(),
  source: z.string(),
  num_pages: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const UploadCompleteResult = z.object({
  feed_id: z.string(),
  files: z.array(UploadedFile),
});
export type UploadCompleteResult = z.infer<typeof UploadCompleteResult>;

/** GET /upload/status: one feed's files (or the given keys), for the worker's poll. */
export const UploadStatusQuery = z.object({
  feed_id: id('feed_id').optional(),
  /** Comma-separated storage keys (at most 100). */
  keys: text('keys', 20_000).optional(),
});
export const UploadStatusResult = z.object({
  feed_id: z.string().nullable(),
  files: z.array(UploadedFile),
  /** True when every file is COMPLETED or FAILED: polling may stop. */
  done: z.boolean(),
});
export type UploadStatusResult = z.infer<typeof UploadStatusResult>;

/** GET /upload/files: the user's uploads, newest first (the drive). */
export const UploadFilesQuery = z.object({
  before: text('before', 64).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const UploadFilesResult = z.object({
  files: z.array(UploadedFile),
  /** Pass as `before` for the next page; null at the end. */
  next: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------
// Storage, pricing
// ---------------------------------------------------------------------------------------------

export const UserStorage = z.object({
  used_bytes: z.number().int().nonnegative(),
  limit_bytes: z.number().int().nonnegative(),
  file_count: z.number().int().nonnegative(),
  plan: z.string(),
});
export type UserStorage = z.infer<typeof UserStorage>;
export const UserStorageResult = z.object({ results: UserStorage });

/** The gated features (000 §6); an unknown key is an error on the client (002 §8). */
export const PRICING_FEATURES = ['add_to_needldrive', 'add_notebook'] as const;
export const PricingFeature = z.enum(PRICING_FEATURES);
export type PricingFeature = z.infer<typeof PricingFeature>;

/** The pricing modal's content (002 §9); action upgrade, storage or feed_manager. */
export const PricingMessage = z.object({
  header: z.string(),
  body: z.string(),
  subtext: z.string(),
  /** Terms of `subtext` shown highlighted. */
  highlights: z.array(z.string()),
  action: z.enum(['upgrade', 'storage', 'feed_manager']),
});
export type PricingMessage = z.infer<typeof PricingMessage>;
export const FeatureEligibility = z.object({
  isEligible: z.boolean(),
  /** Null while eligible. */
  message: PricingMessage.nullable(),
});
export const PricingMessagingResult = z.object({
  results: z.record(PricingFeature, FeatureEligibility),
});
export type PricingMessagingResult = z.infer<typeof PricingMessagingResult>;

export const StorageLimitResult = z.object({
  results: z.object({
    isEligible: z.boolean(),
    used_bytes: z.number().int().nonnegative(),
    limit_bytes: z.number().int().nonnegative(),
    remaining_bytes: z.number().int().nonnegative(),
    plan: z.string(),
  }),
});
/** The customer portal link (configuration; absent by default: no payment provider). */
export const CustomerPortalResult = z.object({
  results: z.object({ session_url: z.string().nullable() }),
});

// ---------------------------------------------------------------------------------------------
// Share, download, delete
// ---------------------------------------------------------------------------------------------

/** GET /doc/{source} with share=true (the owner) or public_access_key (anyone, signed out). */
export const ShareQuery = z.object({
  deeplink: id('deeplink'),
  access_key: text('access_key', 200).optional(),
  public_access_key: text('public_access_key', 200).optional(),
  share: z.enum(['true', 'false']).optional(),
});
export const ShareResult = z.object({
  results: z.array(z.object({ deeplink: z.string(), public_access_key: z.string() })),
});
export type ShareResult = z.infer<typeof ShareResult>;
export const DocDeeplinkQuery = z.object({ deeplink: id('deeplink') });
export const DocDownloadQuery = z.object({
  deeplink: id('deeplink'),
  public_access_key: text('public_access_key', 200).optional(),
});
export { DocResult as SharedDocResult };

/** Routes that are not JSON and so not endpoints (the API catalogue parses JSON answers). */
export const UPLOAD_RAW_ROUTES = {
  /** The local disk's transfer: PUT raw bytes; answers UploadTransferResult. */
  transfer: { method: 'put', path: `${UPLOAD_TRANSFER_PATH}/{key}` },
  /** The original file, streamed (token, or public_access_key signed out). */
  download: { method: 'get', path: '/doc/{source}/download' },
} as const;

export const uploads = defineDomain({
  name: 'uploads',
  endpoints: {
    uploadConfig: endpoint({
      method: 'get',
      path: '/upload/config',
      auth: true,
      query: UploadConfigQuery,
      response: UploadConfigResult,
      status: 200,
      summary: 'Upload limits and types (001 §3); cached forever by the client',
    }),
    uploadInit: endpoint({
      method: 'post',
      path: '/upload/init',
      auth: true,
      body: UploadInitBody,
      response: UploadInitResult,
      status: 200,
      summary: 'An upload link, bucket, key and headers per file',
    }),
    uploadComplete: endpoint({
      method: 'post',
      path: '/upload/complete',
      auth: true,
      body: UploadCompleteBody,
      response: UploadCompleteResult,
      status: 200,
      summary: 'Files transferred: a new uploads feed, processing queued',
    }),
    uploadCompleteUpdate: endpoint({
      method: 'put',
      path: '/upload/complete',
      auth: true,
      body: UploadCompletePutBody,
      response: UploadCompleteResult,
      status: 200,
      summary: 'Add files to, or remove them from, an uploads feed',
    }),
    uploadStatus: endpoint({
      method: 'get',
      path: '/upload/status',
      auth: true,
      query: UploadStatusQuery,
      response: UploadStatusResult,
      status: 200,
      summary: 'Processing status of a feed’s files (polled by the worker)',
    }),
    uploadFiles: endpoint({
      method: 'get',
      path: '/upload/files',
      auth: true,
      query: UploadFilesQuery,
      response: UploadFilesResult,
      status: 200,
      summary: 'The user’s uploaded files, newest first',
    }),
    userStorage: endpoint({
      method: 'get',
      path: '/user/storage',
      auth: true,
      response: UserStorageResult,
      status: 200,
      summary: 'Storage used and allowed',
    }),
    pricingMessaging: endpoint({
      method: 'get',
      path: '/stripe/messaging',
      auth: true,
      response: PricingMessagingResult,
      status: 200,
      summary: 'Per gated feature: isEligible and the upsell message',
    }),
    storageLimit: endpoint({
      method: 'get',
      path: '/stripe/limit/storage',
      auth: true,
      response: StorageLimitResult,
      status: 200,
      summary: 'The plan’s storage limit and what is left',
    }),
    customerPortal: endpoint({
      method: 'get',
      path: '/stripe/customer-portal',
      auth: true,
      response: CustomerPortalResult,
      status: 200,
      summary: 'The customer portal link (configuration; null when none)',
    }),
    docDelete: endpoint({
      method: 'delete',
      path: '/doc/{source}',
      auth: true,
      query: DocDeeplinkQuery,
      response: Ok,
      status: 200,
      summary: 'Delete an uploaded document: file, passages, search entries, feed entries',
    }),
    docShareRevoke: endpoint({
      method: 'delete',
      path: '/doc/{source}/share',
      auth: true,
      query: DocDeeplinkQuery,
      response: Ok,
      status: 200,
      summary: 'Revoke every public access key of a document',
    }),
  },
  ops: {},
  changes: {},
  stores: [],
});
