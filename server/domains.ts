import { assistantDomain } from './assistant';
import { authDomain } from './auth';
import { boardsDomain } from './boards';
import { seedDocuments } from './demo';
import { documentsDomain } from './documents';
import type { ServerDomain } from './domain';
import { healthDomain } from './health';
import { notebooksDomain } from './notebooks';
import { notificationsDomain } from './notifications';
import { peopleDomain } from './people';
import { searchDomain } from './search';
import { sourcesDomain } from './sources';
import { summariesDomain } from './summaries';
import { syncDomain } from './sync';
import { tagsDomain } from './tags';
import { telemetryDomain } from './telemetry';
import { uploadsDomain } from './uploads';
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
  // The demo corpus (server/demo/) is the documents domain's seed; it writes through the
  // pipeline (server/content/), above documents, so it is attached here.
  { ...documentsDomain, seed: seedDocuments },
  boardsDomain,
  searchDomain,
  // Answers from the documents, searched (after content and search).
  assistantDomain,
  // Uploaded files into documents (after content and search; its guard answers GET /doc
  // share variants ahead of the documents route).
  uploadsDomain,
  // Tables and summaries of uploaded documents (after uploads: its tables and files).
  summariesDomain,
  // The user's tags and bookmarks on documents (after documents: links name them).
  tagsDomain,
  // The user's people and their contacts (no other domain's tables).
  peopleDomain,
  // The user's notebooks and notes (after uploads: the add_notebook gate counts them).
  notebooksDomain,
];
