import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from '../../server/start';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite data directory migrated and seeded once for the whole worker run. */
    seededDataDir: string;
  }
}

/**
 * Migrating and seeding the demo workspace costs seconds per server on a busy 2-core machine and
 * gives the same database every time: it happens once here, and each test file's server starts
 * on a copy (tests/worker/support.ts), which finds its markers and seeds nothing again.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'worker-seeded-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    seed: true,
    ingest: false,
    uploadJobs: false,
    log: () => {},
  });
  await server.close();
  project.provide('seededDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
