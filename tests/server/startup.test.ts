import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/database';
import { allMigrations, migrateToLatest } from '../../server/db/migrate';
import { defineServerDomain } from '../../server/domain';
import { serverDomains } from '../../server/domains';
import { seedDemoWorkspace } from '../../server/seed';
import { startServer, type RunningServer } from '../../server/start';
import { freshPostgresDatabase, REAL_POSTGRES_URL } from './harness';

const ISSUE_2_MIGRATIONS = ['0001-initial', '0002-auth-attempts', '0003-debug-log-expired-token'];
/** Content (sources, documents, boards) and ingestion. */
const ISSUE_6_MIGRATIONS = ['0007-sources', '0008-documents', '0009-boards', '0010-ingest-jobs'];

describe('migrations from every domain', () => {
  it('merge into one list, in order, keeping the names databases already hold', () => {
    expect(Object.keys(allMigrations()).sort()).toEqual([
      ...ISSUE_2_MIGRATIONS,
      '0004-change-floor',
      '0005-auth-attempt-pending',
      '0006-notifications-unread',
      ...ISSUE_6_MIGRATIONS,
      '0011-search',
      '0012-assistant',
      '0013-search-scoped-words',
      '0014-entities',
      '0015-search-reindex',
      '0016-assistant-answering',
      '0017-uploads',
      '0018-organization-plan',
      '0020-document-summaries',
      '0022-user-tags',
      '0023-document-tags',
      '0024-document-tags-by-document',
      '0025-notebooks',
      '0026-notes',
      '0027-people',
      '0030-passage-text-hash',
    ]);
  });

  it('refuse a number used twice', () => {
    const clash = defineServerDomain({
      name: 'tabs',
      register: () => {},
      migrations: { '0004-something-else': { up: async () => {} } },
    });
    expect(() => allMigrations([...serverDomains, clash])).toThrow(
      'migration "0004-something-else" (tabs) reuses the number of "0004-change-floor"',
    );
  });
});

describe.each(['sqlite', 'pglite'] as const)('a database from before domains on %s', (kind) => {
  let opened: OpenedDatabase | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await opened?.db.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates on from the names it applied, and is not seeded twice', async () => {
    dataDir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'server-legacy-')) : undefined;
    opened = await openDatabase({ dataDir, pglite: kind === 'pglite' });
    const { db } = opened;
    const all = allMigrations();
    const old = Object.fromEntries(ISSUE_2_MIGRATIONS.map((name) => [name, all[name]]));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => old } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // Issue 2 marked a seeded database with one marker.
    await db.insertInto('meta').values({ key: 'seeded_demo_workspace', value: 'then' }).execute();

    expect(await migrateToLatest(db)).toEqual([
      '0004-change-floor',
      '0005-auth-attempt-pending',
      '0006-notifications-unread',
      ...ISSUE_6_MIGRATIONS,
      '0011-search',
      '0012-assistant',
      '0013-search-scoped-words',
      '0014-entities',
      '0015-search-reindex',
      '0016-assistant-answering',
      '0017-uploads',
      '0018-organization-plan',
      '0020-document-summaries',
      '0022-user-tags',
      '0023-document-tags',
      '0024-document-tags-by-document',
      '0025-notebooks',
      '0026-notes',
      '0027-people',
      '0030-passage-text-hash',
    ]);
    // Domains added since seed their part (the built-in corpus); auth's is not seeded again.
    expect(await seedDemoWorkspace(db, serverDomains, { now: 0, product: 'needl' })).toBe(true);
    expect(await db.selectFrom('users').selectAll().execute()).toEqual([]);
    const markers = await db.selectFrom('meta').select('key').orderBy('key').execute();
    expect(markers.map((m) => m.key)).toEqual([
      'seeded:assistant',
      'seeded:auth',
      'seeded:boards',
      'seeded:documents',
      'seeded:notifications',
      'seeded:sources',
    ]);
  });
});

const demoSignIn = async (server: RunningServer) =>
  (
    await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
    })
  ).status;

describe('several servers starting together on one database', () => {
  let servers: RunningServer[] = [];
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    await cleanup();
  });

  /** Starts three servers on one database at once; answers each one's log. */
  const startThree = async (options: { dataDir?: string; databaseUrl?: string }) => {
    const logs: string[][] = [[], [], []];
    const results = await Promise.allSettled(
      logs.map((log) => startServer({ port: 0, ...options, log: (line) => log.push(line) })),
    );
    // Those that did start are closed after the test, whatever happened to the others.
    servers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    return { logs };
  };

  it('all come up on one SQLite file, and the demo is seeded once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'server-three-'));
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    const started = await startThree({ dataDir });
    expect(started.logs.filter((l) => l.includes('seeded the demo workspace'))).toHaveLength(1);
    for (const server of servers) expect(await demoSignIn(server)).toBe(200);
  });

  it('all come up on one PostgreSQL, and the demo is seeded once', async (ctx) => {
    if (!REAL_POSTGRES_URL) {
      ctx.skip('TEST_DATABASE_URL is not set: there is no real PostgreSQL to start three on');
      return;
    }
    const database = await freshPostgresDatabase(REAL_POSTGRES_URL);
    cleanup = database.drop;
    const started = await startThree({ databaseUrl: database.url });
    expect(started.logs.filter((l) => l.includes('seeded the demo workspace'))).toHaveLength(1);
    for (const server of servers) expect(await demoSignIn(server)).toBe(200);
    const health = await (await fetch(`${servers[2].url}/api/health`)).json();
    expect(health).toEqual({ status: 'ok', product: 'needl', database: 'postgres' });
  });
});
