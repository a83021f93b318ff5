import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database, Db } from '../../server/db/schema';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { serverDomains } from '../../server/domains';
import { seedDemoWorkspace } from '../../server/seed';

/**
 * Migrated (and seeded) databases made once and copied for each harness. PGlite runs initdb in
 * WebAssembly on every `PGlite.create()` (5 to 20 s on 2 cores, most of a storage suite's time);
 * loading a data directory saved after migrations and the seed skips initdb, migrations and the
 * seed. SQLite's copy is a file copy.
 *
 * A real PostgreSQL server gets a template database instead: CREATE DATABASE ... TEMPLATE copies
 * it in a fraction of the time migrations and the seed take over the wire.
 *
 * The templates are cached on disk under the system temp directory, named by a hash of
 * everything that shapes them (every file under server/ and contract/, the PGlite version, the
 * seed clock and product), so any edit to a migration or a seed makes a new one, and the suites
 * of one run (each file in its own module scope, several workers) share them.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = join(tmpdir(), 'needl-test-templates');

export type TemplateOptions = { seedNow: number; product: string; seed: boolean };

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });

let sourceHash: string | undefined;
/** One hash of the code that migrates and seeds a database (read once per module scope). */
const hashOfSources = (): string => {
  if (sourceHash) return sourceHash;
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  const files = ['server', 'contract'].flatMap((dir) => filesUnder(join(ROOT, dir))).sort();
  for (const file of files) {
    hash.update(`${relative(ROOT, file)}\n`);
    hash.update(readFileSync(file));
  }
  sourceHash = hash.digest('hex').slice(0, 20);
  return sourceHash;
};

const templatePath = (kind: 'sqlite' | 'pglite', opts: TemplateOptions) =>
  join(
    CACHE_DIR,
    `${kind}-${hashOfSources()}-${opts.product}-${opts.seedNow}-${opts.seed ? 'seeded' : 'empty'}.${kind === 'sqlite' ? 'db' : 'tar'}`,
  );

/**
 * Templates of code edited since: each edit under server/ or contract/ makes new ones (a PGlite
 * one is about 45 MB), so those unused for an hour go, and all but the 12 used last.
 */
const dropOldTemplates = () => {
  const hourAgo = Date.now() - 3600_000;
  const found = readdirSync(CACHE_DIR).flatMap((name) => {
    const path = join(CACHE_DIR, name);
    try {
      return [{ path, used: statSync(path).mtimeMs, template: /\.(db|tar)$/.test(name) }];
    } catch {
      return []; // another worker removed it first
    }
  });
  // Besides templates: locks (madeOnce) and templates being written (writeAtomically), left
  // by a process that died if an hour old.
  for (const { path } of found.filter((f) => !f.template && f.used < hourAgo)) {
    rmSync(path, { recursive: true, force: true });
  }
  const templates = found.filter((f) => f.template).sort((a, b) => b.used - a.used);
  for (const [i, { path, used }] of templates.entries()) {
    if (i >= 12 || used < hourAgo) rmSync(path, { force: true });
  }
};

/** Marks a template used now (dropOldTemplates keeps those used last). */
const touch = (path: string) => {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // removed meanwhile: the copy already made is whole
  }
};

/** Writes a template where `path` is, atomically (another worker may be writing it too). */
const writeAtomically = (path: string, write: (tmp: string) => void) => {
  mkdirSync(dirname(path), { recursive: true });
  dropOldTemplates();
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  write(tmp);
  renameSync(tmp, path);
};

/** Migrations, the domains' prepare steps and (when asked) the demo seed, as the server runs them. */
export const migrateAndSeed = async (db: Db, opts: TemplateOptions) => {
  await migrateToLatest(db);
  for (const domain of serverDomains) await domain.prepare?.(db, { product: opts.product });
  if (opts.seed) {
    await seedDemoWorkspace(db, serverDomains, { now: opts.seedNow, product: opts.product });
  }
};

const sqliteTemplates = new Map<string, string>();
/** The path of a migrated (and seeded) SQLite file to copy; made on first use. */
const sqliteTemplate = async (opts: TemplateOptions): Promise<string> => {
  const path = templatePath('sqlite', opts);
  const known = sqliteTemplates.get(path);
  if (known) return known;
  touch(path);
  if (!existsSync(path)) {
    const dir = mkdtempSync(join(tmpdir(), 'server-template-'));
    try {
      const { db } = await openDatabase({ dataDir: dir });
      await migrateAndSeed(db, opts);
      // Closing the last connection checkpoints the WAL into workspace.db.
      await db.destroy();
      writeAtomically(path, (tmp) => copyFileSync(join(dir, 'workspace.db'), tmp));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  sqliteTemplates.set(path, path);
  return path;
};

/** A fresh SQLite database in `dataDir`, migrated (and seeded) from the template. */
export const openSqliteFromTemplate = async (dataDir: string, opts: TemplateOptions) => {
  const target = join(dataDir, 'workspace.db');
  const path = await sqliteTemplate(opts);
  try {
    copyFileSync(path, target);
  } catch {
    // Dropped by another run meanwhile (dropOldTemplates): made again.
    sqliteTemplates.delete(path);
    copyFileSync(await sqliteTemplate(opts), target);
  }
  return openDatabase({ dataDir });
};

const loadPglite = () =>
  Promise.all([import('@electric-sql/pglite'), import('kysely-pglite-dialect')]);

/**
 * Makes `path` with `make` unless another process is making it (a lock directory beside it):
 * then waits for its file. Two vitest workers starting together would otherwise both pay
 * PGlite's initdb, migrations and seed (tens of seconds on 2 cores) for the same template.
 */
const madeOnce = async (path: string, make: () => Promise<void>) => {
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  for (;;) {
    if (existsSync(path)) return;
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
      // Held by another process; one held for 10 minutes is a dead process's.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true });
      } catch {
        // released meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (!existsSync(path)) await make();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
};

const pgliteTemplates = new Map<string, Promise<Blob>>();
/** A migrated (and seeded) PGlite data directory (a tar) to load; made on first use. */
const pgliteTemplate = (opts: TemplateOptions): Promise<Blob> => {
  const path = templatePath('pglite', opts);
  let template = pgliteTemplates.get(path);
  if (!template) {
    template = (async () => {
      await madeOnce(path, async () => {
        const [{ PGlite }, { PGliteDialect }] = await loadPglite();
        const pglite = await PGlite.create();
        const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
        try {
          await migrateAndSeed(db, opts);
          await pglite.exec('CHECKPOINT');
          const tar = await pglite.dumpDataDir('none');
          const bytes = new Uint8Array(await tar.arrayBuffer());
          writeAtomically(path, (tmp) => writeFileSync(tmp, bytes));
        } finally {
          await db.destroy();
        }
      });
      touch(path);
      return new Blob([readFileSync(path)]);
    })();
    pgliteTemplates.set(path, template);
    template.catch(() => pgliteTemplates.delete(path));
  }
  return template;
};

/** A fresh in-memory PGlite database, migrated (and seeded) from the template. */
export const openPgliteFromTemplate = async (opts: TemplateOptions) => {
  const [{ PGlite }, { PGliteDialect }] = await loadPglite();
  const pglite = await PGlite.create({ loadDataDir: await pgliteTemplate(opts) });
  return {
    db: new Kysely<Database>({ dialect: new PGliteDialect(pglite) }),
    dialect: 'postgres' as const,
  };
};

/**
 * Template databases on a real PostgreSQL server: `needl_tmpl_<key>_<unix seconds made>`, the
 * key a hash of what shapes them (as for the files above). Made once per key under an advisory
 * lock (other processes wait for it), built under a temporary name and renamed when whole.
 */
const PG_TEMPLATE_PREFIX = 'needl_tmpl_';
const pgTemplates = new Map<string, Promise<string>>();

const withAdmin = async <T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};

/** Templates of code edited since: those made over an hour ago, and all but the 12 newest. */
const dropOldPgTemplates = async (c: pg.Client, keep: string) => {
  const { rows } = await c.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE '${PG_TEMPLATE_PREFIX}%'`,
  );
  const hourAgo = Date.now() / 1000 - 3600;
  const found = rows
    .map((r) => ({ name: r.datname, made: Number(r.datname.split('_').at(-1)) }))
    .filter((t) => t.name !== keep && Number.isFinite(t.made))
    .sort((a, b) => b.made - a.made);
  for (const [i, t] of found.entries()) {
    if (i < 11 && t.made >= hourAgo) continue;
    // In use by another run's copy (or gone already): left for a later run.
    await c.query(`DROP DATABASE IF EXISTS ${t.name}`).catch(() => undefined);
  }
};

const templateKey = (opts: TemplateOptions) =>
  createHash('sha256')
    .update(`${hashOfSources()} ${opts.product} ${opts.seedNow} ${opts.seed}`)
    .digest('hex')
    .slice(0, 24);

/** The name of a migrated (and seeded) template database on the server; made on first use. */
export const postgresTemplate = (adminUrl: string, opts: TemplateOptions): Promise<string> => {
  const key = templateKey(opts);
  const cacheKey = `${adminUrl} ${key}`;
  let template = pgTemplates.get(cacheKey);
  if (!template) {
    template = withAdmin(adminUrl, async (c) => {
      const existing = async () =>
        (
          await c.query<{ datname: string }>(
            'SELECT datname FROM pg_database WHERE datname LIKE $1',
            [`${PG_TEMPLATE_PREFIX}${key}_%`],
          )
        ).rows[0]?.datname;
      const lock = `needl-test-template ${key}`;
      await c.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
      try {
        const found = await existing();
        if (found) return found;
        const name = `${PG_TEMPLATE_PREFIX}${key}_${Math.floor(Date.now() / 1000)}`;
        // Under the lock, any half-built one is a dead process's.
        const dead = await c.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE datname LIKE $1',
          [`needl_building_${key}_%`],
        );
        for (const { datname } of dead.rows) await c.query(`DROP DATABASE IF EXISTS ${datname}`);
        const building = `needl_building_${key}_${process.pid}`;
        await c.query(`CREATE DATABASE ${building}`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const { db } = await openDatabase({ databaseUrl: url.toString() });
        try {
          await migrateAndSeed(db, opts);
        } finally {
          await db.destroy();
        }
        // pg's pool.end() resolves before its sockets have closed: a rename waits for them.
        for (let i = 0; ; i++) {
          try {
            await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== '55006' || i >= 250) throw err;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        await dropOldPgTemplates(c, name);
        return name;
      } finally {
        await c.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
      }
    });
    pgTemplates.set(cacheKey, template);
    template.catch(() => pgTemplates.delete(cacheKey));
  }
  return template;
};

/** Forgets a template another run dropped meanwhile, so the next call makes it again. */
export const forgetPostgresTemplate = (adminUrl: string, opts: TemplateOptions) => {
  pgTemplates.delete(`${adminUrl} ${templateKey(opts)}`);
};
