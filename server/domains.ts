import { assistantDomain } from './assistant';
import { authDomain } from './auth';
import { boardsDomain } from './boards';
import { documentsDomain } from './documents';
import type { ServerDomain } from './domain';
import { healthDomain } from './health';
import { notificationsDomain } from './notifications';
import { searchDomain } from './search';
import { sourcesDomain } from './sources';
import { syncDomain } from './sync';
import { telemetryDomain } from './telemetry';
import { userDomain } from './user';

/**
 * Every server domain, one line each. The app registers their routes, the migrator merges
 * their migrations, the seed and the maintenance run theirs, in this order (auth seeds the
 * accounts other seeds fill).
 */
export const serverDomains: readonly ServerDomain[] = [
  healthDomain,
  authDomain,
  userDomain,
  notificationsDomain,
  telemetryDomain,
  syncDomain,
  // Content: sources before documents (a document fans out to its source's followers), boards
  // last (a feed is built over the documents).
  sourcesDomain,
  documentsDomain,
  boardsDomain,
  searchDomain,
  // Answers from the documents, searched (after content and search).
  assistantDomain,
];
