import { defineServerDomain } from '../domain';
import { compactChangeLog } from './compaction';
import { syncMigrations } from './migrations';
import { registerSyncRoutes } from './routes';

/** The per-user change log every domain writes to (changes.ts) and the worker pulls. */
export const syncDomain = defineServerDomain({
  name: 'sync',
  register: registerSyncRoutes,
  migrations: syncMigrations,
  maintain: (db, { now, changeRetention }) => compactChangeLog(db, now, changeRetention),
});

// What other folders may import (eslint.config.js: only through this file).
export {
  type ChangeInput,
  lockUserRow,
  recordChange,
  reserveChangeSeq,
  writeChange,
} from './changes';
