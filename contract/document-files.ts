import { z } from 'zod';
import { defineDomain, id, op, text } from './define';
import { DocumentDetail } from './documents';
import { SummaryStatus } from './extract';

/**
 * What a tab does with an uploaded document's file (issue 20 items 4 and 6; 002 §3-4, §7-8):
 * its original bytes for the PDF viewer and for download, share (a public access key) and
 * revoke, delete, and its summary. The calls are the uploads and extract domains' (contract/
 * uploads.ts, contract/extract.ts); these are the worker's ops over them, so a tab never
 * fetches (ARCHITECTURE "Layers").
 *
 * Designed here ("not shown" in the spec):
 * - `docFile.original` answers the file as a Blob (the worker reads the streamed download;
 *   a Blob crosses to the tab by reference, not copied). With `public_access_key` it is asked
 *   signed out, like `docFile.shared`: both are public ops (a signed-out tab may call them).
 * - A share link is `/redirect/document?source=&deeplink=&public_access_key=` on the app's
 *   origin (`shareLinkPath`): it opens the shared document signed in or out, until revoked.
 * - Summaries: `docFile.summarise` asks for one and answers its state at once; the worker then
 *   polls its status (5 s, doubling, 120 s in all, one poll per document for every tab) into
 *   the store `summaries` (key: deeplink), so every tab showing the document hears 'changed'.
 */

const DocRef = z.object({ source: id('source'), deeplink: id('deeplink') });

/**
 * The user's drive source key, `<product>drive_<user id>`: the source of every document they
 * uploaded (private to them), the `{source}` of their documents' preview and /doc calls.
 */
export const driveSourceKey = (product: string, userId: string) => `${product}drive_${userId}`;
/** Whether a source key is a drive's (the user's own uploads: the only ones a user can see). */
export const isDriveSource = (source: string, product: string) =>
  source.startsWith(driveSourceKey(product, ''));

/** The app's address that opens a shared document (signed in or out). */
export const SHARED_DOCUMENT_PATH = '/redirect/document';
export const shareLinkPath = (source: string, deeplink: string, publicAccessKey: string) =>
  `${SHARED_DOCUMENT_PATH}?${new URLSearchParams({
    source,
    deeplink,
    public_access_key: publicAccessKey,
  }).toString()}`;

/** Summaries are polled from this wait, doubling, until this much was waited (001 §4's rule). */
export const SUMMARY_POLL_START_MS = 5_000;
export const SUMMARY_POLL_CAP_MS = 120_000;

export const documentFiles = defineDomain({
  name: 'document_files',
  endpoints: {},
  ops: {
    /** The original file (GET /doc/{source}/download); signed out with a public access key. */
    'docFile.original': op(
      DocRef.extend({ public_access_key: text('public_access_key', 200).optional() }),
      z.instanceof(Blob),
      { public: true },
    ),
    /**
     * Bytes `start`..`end` (inclusive) of the original file, and the file's size: the PDF
     * viewer reads by ranges (GET /doc/{source}/download with a Range header, 206). An end past
     * the file is cut to its last byte; signed out with a public access key.
     */
    'docFile.range': op(
      DocRef.extend({
        public_access_key: text('public_access_key', 200).optional(),
        start: z.number().int().min(0),
        end: z.number().int().min(0),
      }).refine((r) => r.end >= r.start, {
        message: 'end must not be before start',
        path: ['end'],
      }),
      z.object({ size: z.number().int().min(0), bytes: z.instanceof(Uint8Array) }),
      { public: true },
    ),
    /** A shared document, read with its public access key (signed out too). */
    'docFile.shared': op(
      DocRef.extend({ public_access_key: text('public_access_key', 200) }),
      DocumentDetail,
      { public: true },
    ),
    /** A new public access key (GET /doc/{source}?share=true). */
    'docFile.share': op(
      DocRef.extend({ access_key: text('access_key', 200).optional() }),
      z.object({ public_access_key: z.string() }),
    ),
    /** Revokes every public access key of the document. */
    'docFile.revokeShare': op(DocRef, z.void()),
    /** Deletes the uploaded document: file, passages, feed entries, summary. */
    'docFile.delete': op(DocRef, z.void()),
    /** Asks for the document's summary (POST /save_summary/v2); its state at once. */
    'docFile.summarise': op(z.object({ deeplink: id('deeplink') }), SummaryStatus),
    /** The summary's state (the worker's copy while it polls, else the server's). */
    'docFile.summaryStatus': op(z.object({ deeplink: id('deeplink') }), SummaryStatus),
  },
  changes: {},
  stores: ['summaries'],
});
