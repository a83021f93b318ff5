import type { WorkerDomain } from '../registry';
import { assistantDomain } from './assistant';
import { boardsDomain } from './boards';
import { documentFilesDomain } from './document-files';
import { documentsDomain } from './documents';
import { extractDomain } from './extract';
import { notebooksDomain } from './notebooks';
import { notificationsDomain } from './notifications';
import { peopleDomain } from './people';
import { searchDomain } from './search';
import { sourcesDomain } from './sources';
import { tagsDomain } from './tags';
import { telemetryDomain } from './telemetry';
import { uploadsDomain } from './uploads';
import { userDomain } from './user';

/**
 * The product's worker domains, one line each: a new domain adds its file and a line here.
 * Auth, tabs and sync are the worker's core (ops.ts), not domains: they own no mirror stores.
 */
export const productDomains: readonly WorkerDomain[] = [
  userDomain,
  notificationsDomain,
  telemetryDomain,
  documentsDomain,
  sourcesDomain,
  boardsDomain,
  searchDomain,
  assistantDomain,
  uploadsDomain,
  documentFilesDomain,
  extractDomain,
  tagsDomain,
  peopleDomain,
  notebooksDomain,
];
