import { z } from 'zod';
import { defineDomain, id, op, text } from './define';
import { ReportType, UploadConfig, UploadedFile, UploadStatus } from './uploads';

/**
 * The client side of uploads (issue 20; 001 §3-5, §7): the worker's ops and its mirror store
 * `uploads`. The calls themselves are the `uploads` domain's (contract/uploads.ts).
 *
 * Designed here ("not shown" in the spec):
 * - `uploads.start` takes the picked or dropped files (Blobs cross to the worker by structured
 *   clone), runs the file checks of 001 §5 against the cached config and answers at once with
 *   what was accepted and the messages to toast; init, the transfers, complete and the status
 *   poll then run in the worker, whatever tab started them.
 * - Every file is one record of `uploads` (key: the client's id), announced as 'changed' with
 *   its key, so every tab showing uploads re-reads it with `uploads.list`.
 */

/** One file as a tab hands it over. */
export const StartFile = z.object({
  id: id('files[].id'),
  name: text('files[].name', 255).min(1, { message: 'files[].name must not be empty' }),
  size: z.number().int().nonnegative(),
  /** The browser's type ('' when it has none: one comes from the extension). */
  type: z.string(),
  isFolder: z.boolean().optional(),
  data: z.instanceof(Blob, { message: 'files[].data must be a Blob' }),
});
export type StartFile = z.infer<typeof StartFile>;

export const UploadStartInput = z.object({
  files: z.array(StartFile).min(1, { message: 'files must not be empty' }),
  /** The uploads source (the spec's `source`); the drive's by default. */
  source: text('source', 128).optional(),
  /** Add to this uploads feed (PUT complete, action add) instead of making a new one. */
  feed_id: id('feed_id').optional(),
  report_type: ReportType.optional(),
  report_name: text('report_name', 200).optional(),
  /** Files the tab already holds (attachments), for the duplicate and count checks. */
  existing: z.array(z.object({ name: z.string(), size: z.number() })).optional(),
});
export type UploadStartInput = z.infer<typeof UploadStartInput>;

export const UploadStartResult = z.object({
  /** Ids of the files that go on to upload. */
  accepted: z.array(z.string()),
  /** Messages to toast (3 s each), in order. */
  errors: z.array(z.string()),
  /** Ids of the files left out as duplicates (name and size). */
  duplicates: z.array(z.string()),
});
export type UploadStartResult = z.infer<typeof UploadStartResult>;

/** A file being uploaded or processed, as the tabs show it. */
export const UploadRow = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  mime_type: z.string(),
  status: UploadStatus,
  /** Percent of the bytes sent (0-100). */
  progress: z.number(),
  /** The status's words: "Error getting upload configs", "Error uploading files", a reason. */
  error: z.string().nullable(),
  source: z.string(),
  key: z.string().nullable(),
  feed_id: z.string().nullable(),
  /** The stored document once COMPLETED. */
  deeplink: z.string().nullable(),
  /** When the upload started (ms, the worker's clock). */
  started_at: z.number(),
});
export type UploadRow = z.infer<typeof UploadRow>;

export const uploadClient = defineDomain({
  name: 'upload_client',
  endpoints: {},
  ops: {
    'uploads.config': op(z.object({ report_type: ReportType.optional() }), UploadConfig),
    'uploads.start': op(UploadStartInput, UploadStartResult),
    'uploads.list': op(z.object({}), z.array(UploadRow)),
    /** The user's uploaded files on the server, newest first (GET /upload/files, one page). */
    'uploads.files': op(
      z.object({ limit: z.number().int().min(1).max(200).optional() }),
      z.array(UploadedFile),
    ),
    /** Forgets finished rows (COMPLETED, FAILED, UPLOADING_ERROR), or the given ones. */
    'uploads.dismiss': op(z.object({ ids: z.array(z.string()).optional() }), z.void()),
  },
  changes: {},
  stores: ['uploads'],
});
