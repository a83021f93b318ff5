import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Session } from '../../contract/auth';
import { createApp } from '../../server/app';
import type { ChangeRetention, ServerMetrics } from '../../server/context';
import { openDatabase } from '../../server/db/database';
import { createMailer, type MailLog } from '../../server/mailer';
import { runMaintenance } from '../../server/maintenance';
import { createLocalStorage, type FileStorage } from '../../server/storage';
import type { UploadSettings } from '../../server/uploads';
import {
  forgetPostgresTemplate,
  openPgliteFromTemplate,
  openSqliteFromTemplate,
  postgresTemplate,
  type TemplateOptions,
} from './db-templates';

/**
 * The storage back ends every storage-dependent suite runs against: SQLite, and PostgreSQL:
 * a real server when TEST_DATABASE_URL names one (.ci/run starts one when the machine has
 * PostgreSQL), otherwise PostgreSQL in WASM (PGlite), its stand-in for machines without one.
 * PGlite is not a back end the product runs on, and runs the same SQL as the server about five
 * times slower: beside a real server it would test nothing more.
 */
const REAL_POSTGRES = process.env.TEST_DATABASE_URL;
export type Storage = 'sqlite' | 'pglite' | 'postgres';
export const STORAGES: Storage[] = REAL_POSTGRES ? ['sqlite', 'postgres'] : ['sqlite', 'pglite'];

/**
 * For a suite whose subject does not depend on storage (HTTP, validation, auth rules, parsing,
 * the stream): SQLite alone, as `describe.each(STORAGE_INDEPENDENT)`. The storage those suites
 * touch is tested on every back end by the storage suites; keep STORAGES for those.
 */
export const STORAGE_INDEPENDENT: Storage[] = ['sqlite'];

/** The real server's admin URL when TEST_DATABASE_URL is set. */
export const REAL_POSTGRES_URL = REAL_POSTGRES;

/**
 * A fresh database on the real server, so suites never see each other's rows: empty, or a copy
 * of a template database migrated (and seeded) once (db-templates.ts).
 */
export const freshPostgresDatabase = async (adminUrl: string, template?: TemplateOptions) => {
  const name = `needl_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (!template) {
      await admin.query(`CREATE DATABASE ${name}`);
    } else {
      try {
        await admin.query(
          `CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(adminUrl, template)}`,
        );
      } catch (err) {
        // Dropped by another run meanwhile (db-templates.ts keeps the newest): made again.
        if ((err as { code?: string }).code !== '3D000') throw err;
        forgetPostgresTemplate(adminUrl, template);
        await admin.query(
          `CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(adminUrl, template)}`,
        );
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      // pg's pool.end() resolves before its clients' sockets have closed; FORCE would kill
      // those sessions mid-close, which pg reports as an unhandled error. Let them go first.
      for (let i = 0; i < 250; i++) {
        const { rows } = await c.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  return { url: url.toString(), drop };
};

export const PUBLIC_URL = 'http://localhost:8080';

/** The harness clock's start, and the seed's "now". */
const SEED_NOW = Date.parse('2025-03-03T10:00:00.000Z');

export type CallOptions = {
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string;
  token?: string;
  key?: string;
  headers?: Record<string, string>;
};

export type CallResult = {
  status: number;
  // The tests read answers loosely and assert on them; the contract types the real clients.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
};

/**
 * The real app in-process over a fresh database (SQLite in a temp dir, or in-memory PGlite),
 * with a clock the test moves and the mail log transport.
 */
export const createHarness = async (
  storage: Storage,
  opts: {
    seed?: boolean;
    trustProxy?: boolean;
    idempotencyWaitMs?: number;
    signInWaitMs?: number;
    changeRetention?: ChangeRetention;
    /** Uploaded files: a local disk in a temporary directory unless given (S3 tests). */
    storage?: FileStorage;
    uploads?: Partial<UploadSettings>;
  } = {},
) => {
  if (storage === 'postgres' && !REAL_POSTGRES) throw new Error('postgres needs TEST_DATABASE_URL');
  const clock = { now: SEED_NOW };
  const dataDir = storage === 'sqlite' ? mkdtempSync(join(tmpdir(), 'server-test-')) : undefined;
  // Every back end starts from a copy of a database migrated and seeded once (db-templates.ts):
  // the state migrations and the seed make, without PGlite's initdb or PostgreSQL's migrations
  // on every harness.
  const template = { seedNow: SEED_NOW, product: 'needl', seed: opts.seed !== false };
  const real =
    storage === 'postgres' && REAL_POSTGRES
      ? await freshPostgresDatabase(REAL_POSTGRES, template)
      : null;
  const { db, dialect } = dataDir
    ? await openSqliteFromTemplate(dataDir, template)
    : storage === 'pglite'
      ? await openPgliteFromTemplate(template)
      : await openDatabase({ databaseUrl: real?.url });
  const mail: MailLog = { sent: [] };
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const metrics: ServerMetrics = {
    authPolls: 0,
    requests: 0,
    openConnections: 0,
    connectionsOpened: 0,
  };
  const filesDir = opts.storage ? null : mkdtempSync(join(tmpdir(), 'server-files-'));
  const files = opts.storage ?? createLocalStorage(filesDir!);
  const waits = { idempotencyMs: opts.idempotencyWaitMs };
  const app = createApp({
    storage: files,
    uploads: opts.uploads,
    db,
    dialect,
    product: 'needl',
    distDir: join(tmpdir(), 'no-such-dist-dir'),
    idTokenTtlSeconds: 900,
    now: () => clock.now,
    log,
    mailer: createMailer({ from: 'test <t@example.com>', log, mailLog: mail }),
    publicUrl: () => PUBLIC_URL,
    metrics,
    trustProxy: opts.trustProxy,
    // Read per request: a test may shorten it while the app runs (harness.waits).
    get idempotencyWaitMs() {
      return waits.idempotencyMs;
    },
    signInWaitMs: opts.signInWaitMs,
    changeRetention: opts.changeRetention,
  });

  /** The periodic maintenance, now, by the harness's clock and retention. */
  const maintain = () =>
    runMaintenance({ db, now: () => clock.now, changeRetention: opts.changeRetention });

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.token = o.token;
    if (o.key) headers['idempotency-key'] = o.key;
    let body: string | undefined;
    if (o.rawBody !== undefined || o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = o.rawBody ?? JSON.stringify(o.body);
    }
    const res = await app.request(`/api${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  let counter = 0;
  /** A fresh account; e-mails are unique per harness. */
  const signUp = async (name = 'Ada Lovelace', extra: Record<string, unknown> = {}) => {
    const email = `user${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const res = await call('POST', '/auth/signup', {
      body: { name, email, password: 'correct-horse', ...extra },
    });
    if (res.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(res.body)}`);
    return { email, password: 'correct-horse', session: res.body as Session };
  };

  /** An id token for an account made by signUp. */
  const signIn = async (email: string, password = 'correct-horse'): Promise<string> => {
    const res = await call('POST', '/auth/signin', { body: { email, password } });
    if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
    return (res.body as Session).id_token;
  };

  const signInDemo = async (): Promise<Session> => {
    const res = await call('POST', '/auth/signin', {
      body: { email: 'demo@needl.ai', password: 'demo-password' },
    });
    if (res.status !== 200) throw new Error(`demo sign-in failed: ${JSON.stringify(res.body)}`);
    return res.body as Session;
  };

  const close = async () => {
    await db.destroy();
    await real?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
  };

  return {
    app,
    db,
    dialect,
    clock,
    mail,
    logs,
    metrics,
    call,
    signUp,
    signIn,
    signInDemo,
    maintain,
    close,
    /** The file storage the app writes uploads to. */
    files,
    /** How long a request waits for another holding its idempotency key (undefined: the default). */
    waits,
  };
};

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/** The token in a mailed reset link. */
export const resetTokenFrom = (text: string): string => {
  const link = text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in mail: ${text}`);
  const url = new URL(link);
  const token = url.searchParams.get('token');
  if (!token) throw new Error(`no token in link: ${link}`);
  return token;
};
