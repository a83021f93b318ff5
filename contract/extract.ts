import { z } from 'zod';
import { defineDomain, endpoint, id, op, text } from './define';

/**
 * Extraction from a user's uploaded documents (issue 20 item 6; 002 §3-4, §7-8): the tables of
 * a PDF page (C55 `/ml/table-extraction`) and summaries (C56 `POST /save_summary/v2`, C57
 * `GET /save_summary/config/v2`, C58 `GET /save_summary/status`). A document is named by its
 * `deeplink` (the document id, as in contract/uploads.ts); only the caller's own uploaded,
 * processed documents are reached: another user's deeplink is 404 as if it did not exist.
 *
 * Designed here where the spec says "not shown":
 * - Table extraction is `POST /ml/table-extraction {deeplink, page_number}`. A table is a run of
 *   at least two lines of the page that each fall into two or more cells (text separated by
 *   wide gaps), their cells aligned on common columns; `rows` are its cells' texts, `box` the
 *   table's [x0, y0, x1, y1] in PDF points from the page's top-left corner, with the page's
 *   size. Only PDFs have pages to read tables from: any other type answers 400.
 * - Summary request `POST /save_summary/v2 {deeplink}` answers the summary's state at once
 *   (PENDING; a summary already asked for answers its state and is not made twice); the
 *   server then writes it (PROCESSING) and stores a PDF (SUCCESS), or records why it could not
 *   (FAILED, `error`), and creates a notification for the user either way.
 * - Summary status `GET /save_summary/status?deeplink=`: `status` null when none was asked
 *   for. `summary_pdf` (SUCCESS only) is a path on this server (`/api/save_summary/pdf/...`)
 *   carrying its own secret, so a new tab opens it without the token header; it is the
 *   caller's own (`EXTRACT_RAW_ROUTES.summaryPdf`, not JSON so not an endpoint).
 * - Summary config: the sources whose documents can be summarised and the filters a document
 *   must pass (`filterName` `mime_type` lists the types, the pdf type among them). It never
 *   changes while the server runs (002 §7: cached without expiry).
 */

export const TableExtractionBody = z
  .object({
    deeplink: id('deeplink'),
    page_number: z
      .number({ message: 'page_number must be a number' })
      .int({ message: 'page_number must be a whole number' })
      .min(1, { message: 'page_number must be 1 or more' })
      .max(100_000, { message: 'page_number must be at most 100000' }),
  })
  .strict();
export type TableExtractionBody = z.infer<typeof TableExtractionBody>;

export const ExtractedTable = z.object({
  /** [x0, y0, x1, y1] in PDF points from the page's top-left corner. */
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** The rows, each its cells' texts ('' for an empty cell), all of one length. */
  rows: z.array(z.array(z.string())),
});
export type ExtractedTable = z.infer<typeof ExtractedTable>;

export const TableExtractionResult = z.object({
  results: z.object({
    deeplink: z.string(),
    page_number: z.number().int().min(1),
    num_pages: z.number().int().min(1),
    page_width: z.number(),
    page_height: z.number(),
    tables: z.array(ExtractedTable),
  }),
});
export type TableExtractionResult = z.infer<typeof TableExtractionResult>;

export const SUMMARY_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export type SummaryStatusName = (typeof SUMMARY_STATUSES)[number];

export const SummaryRequestBody = z.object({ deeplink: id('deeplink') }).strict();
export const SummaryStatusQuery = z.object({ deeplink: id('deeplink') });

export const SummaryStatus = z.object({
  deeplink: z.string(),
  /** null: no summary was asked for. */
  status: z.enum(SUMMARY_STATUSES).nullable(),
  /** SUCCESS: the summary PDF's path on this server (opens in a new tab). */
  summary_pdf: z.string().nullable(),
  /** FAILED: why, in words. */
  error: z.string().nullable(),
});
export type SummaryStatus = z.infer<typeof SummaryStatus>;

export const SummaryConfig = z.object({
  sources: z.array(z.string()),
  filters: z.array(z.object({ filterName: z.string(), filterValues: z.array(z.string()) })),
});
export type SummaryConfig = z.infer<typeof SummaryConfig>;

/** "Your summary is currently being generated, and we will notify you once it is complete." */
export const SUMMARY_REQUESTED_TOAST =
  'Your summary is currently being generated, and we will notify you once it is complete.';

/** Routes that are not JSON (the summary PDF, streamed). */
export const EXTRACT_RAW_ROUTES = {
  summaryPdf: { method: 'get', path: '/save_summary/pdf/{id}' },
} as const;
export const SummaryPdfQuery = z.object({
  key: text('key', 200).min(1, { message: 'key must not be empty' }),
});

export const extract = defineDomain({
  name: 'extract',
  endpoints: {
    tableExtraction: endpoint({
      method: 'post',
      path: '/ml/table-extraction',
      auth: true,
      body: TableExtractionBody,
      response: TableExtractionResult,
      status: 200,
      summary: "The tables of a page of one of the user's uploaded PDFs",
    }),
    saveSummary: endpoint({
      method: 'post',
      path: '/save_summary/v2',
      auth: true,
      body: SummaryRequestBody,
      response: SummaryStatus,
      status: 200,
      summary: "Ask for a summary of one of the user's uploaded documents",
    }),
    summaryConfig: endpoint({
      method: 'get',
      path: '/save_summary/config/v2',
      auth: true,
      response: SummaryConfig,
      status: 200,
      summary: 'Which documents can be summarised',
    }),
    summaryStatus: endpoint({
      method: 'get',
      path: '/save_summary/status',
      auth: true,
      query: SummaryStatusQuery,
      response: SummaryStatus,
      status: 200,
      summary: "A document's summary: its state and, when ready, its PDF",
    }),
  },
  ops: {
    /** The tables of a page of one of the user's uploaded PDFs (POST /ml/table-extraction). */
    'tables.page': op(TableExtractionBody, TableExtractionResult.shape.results),
  },
  changes: {},
  stores: [],
});
