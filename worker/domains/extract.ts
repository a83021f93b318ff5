import { extract } from '../../contract/extract';
import { defineWorkerDomain } from '../registry';

/**
 * Extraction from the user's uploaded documents (contract/extract.ts) that a tab asks for on
 * demand: the tables of a PDF page (`tables.page`, POST /ml/table-extraction). Nothing is
 * mirrored: a page's tables are read when asked for. (Summaries are document-files.ts's.)
 */
export const extractDomain = defineWorkerDomain(extract, {
  stores: {},
  reads: {
    'tables.page': async (ctx, body, conn) =>
      (
        await ctx.client.call('tableExtraction', {
          body,
          variant: conn.variant,
          signal: ctx.signal(),
        })
      ).results,
  },
  changes: {},
});
