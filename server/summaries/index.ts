import { defineServerDomain } from '../domain';
import { onUploadedDocumentDeleted } from '../uploads';
import { summaryMigrations } from './migrations';
import { registerSummaryRoutes } from './routes';
import { registerTableRoutes } from './tables-route';
import { summaryKeysOf } from './own';

/**
 * The server side of contract/extract.ts over the user's uploaded documents: the tables of a
 * PDF page (tables-route.ts, reading with server/extract) and summaries (routes.ts, runner.ts,
 * summarize.ts, pdf-writer.ts), with the summaries' migration (0020). It sits after uploads
 * (it reads their files and tables); text extraction itself is server/extract, which the
 * uploads domain's processing job calls. See README.md in this folder.
 */
export const summariesDomain = defineServerDomain({
  name: 'extract',
  register: (app, deps) => {
    // Deleting an uploaded document deletes its summary PDF (the row goes by foreign key).
    onUploadedDocumentDeleted(summaryKeysOf);
    registerTableRoutes(app, deps);
    registerSummaryRoutes(app, deps);
  },
  migrations: summaryMigrations,
});
