import { defineServerDomain } from '../domain';
import { uploadMigrations } from './migrations';
import { registerAccountRoutes } from './account-routes';
import { registerDocumentRoutes } from './document-routes';
import { registerUploadRoutes } from './routes';
import { registerDownload, registerShareGuard } from './share';
import { registerTransfer } from './transfer';
import './tables';

/**
 * Uploads (issue 20): the upload calls, the local transfer endpoint, processing as durable
 * jobs (runner.ts, started by start.ts), share, download and delete, and the pricing gate.
 * See README.md in this folder.
 */
export const uploadsDomain = defineServerDomain({
  name: 'uploads',
  // Ahead of the documents domain's GET /doc/{source}: the share and public-key variants.
  guard: registerShareGuard,
  register: (app, deps) => {
    registerTransfer(app, deps);
    registerDownload(app, deps);
    registerUploadRoutes(app, deps);
    registerAccountRoutes(app, deps);
    registerDocumentRoutes(app, deps);
  },
  migrations: uploadMigrations,
});

export { createUploadRunner, type UploadRunner } from './runner';
export { readUploadSettings, uploadSettingsOf, type UploadSettings } from './settings';
export { eligibility, registerFeatureUsage } from './pricing';
export { driveKeyOf } from './store';
export { onUploadedDocumentDeleted, type UploadedDocumentDeleted } from './remove';
export { TRANSFER_PREFIX } from './transfer';
