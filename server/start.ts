import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { DEFAULT_PRODUCT } from '../contract/constants';
import { createApp } from './app';
import type { AppDeps, ChangeRetention, LlmConfig, ServerMetrics } from './context';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { serverDomains } from './domains';
import type { UserLimits } from './http/user-limits';
import { userAgentFor } from './ingest';
import { createIngestRunner } from './content';
import { createMailer, defaultMailFrom, type MailLog } from './mailer';
import { runMaintenance } from './maintenance';
import { seedDemoWorkspace } from './seed';
import { createStorage, type FileStorage, type StorageSettings } from './storage';
import { createUploadRunner, uploadSettingsOf, type UploadSettings } from './uploads';

export type { MailLog } from './mailer';
export type { ChangeRetention, ServerMetrics } from './context';

export type StartOptions = {
  /** 0 picks a free port. Default 8080. */
  port?: number;
  /** Interface to listen on; every interface by default. */
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  /** In-memory PGlite PostgreSQL: tests only. */
  pglite?: boolean;
  product?: string;
  distDir?: string;
  /** Seed the demo workspace on first start (default true). */
  seed?: boolean;
  idTokenTtlSeconds?: number;
  now?: () => number;
  log?: (line: string) => void;
  smtpUrl?: string;
  mailFrom?: string;
  /** Base of links in mail; http://localhost:<port> by default. */
  publicUrl?: string;
  /** Client addresses from x-forwarded-for (behind a proxy that appends it). */
  trustProxy?: boolean;
  /** The change log's bound (see context.ts); tests ask for a small one. */
  changeRetention?: ChangeRetention;
  /** The assistant's model (LLM_BASE_URL...); unset, the extractive answerer answers. */
  llm?: LlmConfig;
  /** Per-user limits (LIMIT_...; http/user-limits.ts); the defaults where unset. */
  userLimits?: Partial<UserLimits>;
  /**
   * The ingestion runner (server/content/runner.ts), on by default; `false` leaves it idle
   * (`ingest.runDue()` still runs due jobs on demand). `allowPrivate` defaults to
   * FETCH_ALLOW_PRIVATE=1. `presetBaseUrl` (PRESET_BASE_URL) reads filings presets from
   * `${presetBaseUrl}/${key}` instead of their public feeds.
   */
  /**
   * Where uploaded files live (server/storage): settings or a storage; the local disk under
   * `<dataDir>/files` by default (a temporary directory when there is no data directory).
   */
  storage?: StorageSettings | FileStorage;
  /** Upload limits, plans and the processing runner (uploads/settings.ts); `uploadJobs: false` leaves the runner idle. */
  uploads?: Partial<UploadSettings>;
  uploadJobs?: false;
  ingest?:
    | false
    | {
        intervalMs?: number;
        allowPrivate?: boolean;
        leaseMs?: number;
        concurrency?: number;
        presetBaseUrl?: string;
      };
};

export type RunningServer = {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  metrics: ServerMetrics;
  mail: MailLog;
  /**
   * Runs the periodic maintenance now (it also runs hourly): purges, and compacts the change
   * log to `changeRetention`. For tests that need a compacted log.
   */
  runMaintenance(): Promise<void>;
  /** Ingestion: `runDue()` runs every due job now and answers how many ran. */
  ingest: { runDue(): Promise<number> };
  /** Upload processing: `runDue()` processes every queued file now. */
  uploads: { runDue(): Promise<number> };
  /** Stops listening, lets requests in flight finish (5 s at most), closes the database. */
  close(): Promise<void>;
};

const MAINTENANCE_EVERY_MS = 3600 * 1000;

const CLOSE_GRACE_MS = 5000;

/**
 * Opens the database, migrates and seeds (under the database's start-up lock, so that servers
 * started together on one PostgreSQL take turns), and serves the app and the API.
 */
export const startServer = async (opts: StartOptions = {}): Promise<RunningServer> => {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? ((line: string) => console.log(line));
  const product = opts.product ?? DEFAULT_PRODUCT;
  const { db, dialect, location, exclusive } = await openDatabase(opts);
  const metrics: ServerMetrics = {
    authPolls: 0,
    requests: 0,
    openConnections: 0,
    connectionsOpened: 0,
  };
  const mail: MailLog = { sent: [] };
  // SQLite's home (./data unless told); with PostgreSQL only an explicit dataDir counts.
  const dataDir = opts.dataDir ?? (opts.pglite || opts.databaseUrl ? undefined : './data');
  const mailer = createMailer({
    smtpUrl: opts.smtpUrl,
    from: opts.mailFrom ?? defaultMailFrom(product),
    log,
    mailLog: mail,
    dir: dataDir === undefined ? undefined : join(dataDir, 'mail'),
    now,
  });
  let publicUrl = opts.publicUrl ?? '';
  const deps: AppDeps = {
    db,
    dialect,
    product,
    distDir: opts.distDir ?? './dist',
    idTokenTtlSeconds: opts.idTokenTtlSeconds ?? 900,
    now,
    log,
    mailer,
    publicUrl: () => publicUrl,
    metrics,
    trustProxy: opts.trustProxy ?? false,
    changeRetention: opts.changeRetention,
    llm: opts.llm,
    userLimits: opts.userLimits,
    uploads: opts.uploads,
  };
  const filesTemp =
    opts.storage === undefined && dataDir === undefined
      ? mkdtempSync(join(tmpdir(), 'needl-files-'))
      : null;
  const storage: FileStorage =
    opts.storage && 'put' in opts.storage
      ? opts.storage
      : createStorage(opts.storage ?? { kind: 'local', dir: filesTemp ?? join(dataDir!, 'files') });
  deps.storage = storage;
  const maintain = () => runMaintenance(deps);

  try {
    await exclusive(async () => {
      const applied = await migrateToLatest(db);
      if (applied.length) log(`database migrated (${applied.join(', ')})`);
      for (const domain of serverDomains) await domain.prepare?.(db, { product });
      const seeded =
        opts.seed !== false &&
        (await seedDemoWorkspace(db, serverDomains, { now: now(), product }));
      if (seeded) log('seeded the demo workspace');
    });
    await maintain();
  } catch (err) {
    mailer.close();
    await db.destroy();
    throw err;
  }
  const app = createApp(deps);

  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: opts.port ?? 8080,
          hostname: opts.host,
          // Bodies left unread by an early answer are the app's to drain (http/early-answer.ts).
          autoCleanupIncoming: false,
        },
        () => resolve(s as Server),
      ) as Server;
      s.once('error', reject);
    });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  server.on('connection', (socket) => {
    metrics.connectionsOpened++;
    metrics.openConnections++;
    socket.once('close', () => metrics.openConnections--);
  });
  const port = (server.address() as AddressInfo).port;
  publicUrl ||= `http://localhost:${port}`;
  log(`database: ${dialect} (${location})`);

  const ingestOpts = opts.ingest === false ? {} : (opts.ingest ?? {});
  const ingest = createIngestRunner({
    db,
    dialect,
    now,
    log,
    intervalMs: ingestOpts.intervalMs,
    leaseMs: ingestOpts.leaseMs,
    concurrency: ingestOpts.concurrency,
    presetBaseUrl: ingestOpts.presetBaseUrl,
    fetch: {
      allowPrivate: ingestOpts.allowPrivate ?? process.env.FETCH_ALLOW_PRIVATE === '1',
      userAgent: userAgentFor(
        product,
        /<([^>]+)>/.exec(opts.mailFrom ?? defaultMailFrom(product))?.[1],
      ),
    },
  });
  if (opts.ingest !== false) ingest.start();
  const uploadRunner = createUploadRunner({
    db,
    dialect,
    storage,
    product,
    now,
    log,
    ...uploadSettingsOf(opts.uploads).runner,
  });
  deps.uploadRunner = uploadRunner;
  if (opts.uploadJobs !== false) uploadRunner.start();

  const purge = setInterval(() => {
    maintain().catch((err: unknown) => log(`maintenance failed: ${String(err)}`));
  }, MAINTENANCE_EVERY_MS);
  purge.unref();

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(purge);
      await ingest.stop();
      await uploadRunner.stop();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      mailer.close();
      await db.destroy();
      await storage.close();
      if (filesTemp) rmSync(filesTemp, { recursive: true, force: true });
    })());

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    metrics,
    mail,
    runMaintenance: maintain,
    ingest: { runDue: ingest.runDue },
    uploads: { runDue: uploadRunner.runDue },
    close,
  };
};
