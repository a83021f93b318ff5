import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL server for bench/search, started the way .ci/run does
 * (scripts/ci-postgres.sh): the newest /usr/lib/postgresql/<version>/bin, a cluster in a
 * temporary directory (as the `postgres` user when we are root), trust authentication, a free
 * port on 127.0.0.1. Nothing is installed: without binaries it answers why it was skipped.
 */

export type ThrowawayPostgres = { url: string; version: string; stop: () => void };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const newestBin = (): string | null => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b));
  return versions.length ? join(root, versions[versions.length - 1], 'bin') : null;
};

export async function startPostgres(): Promise<ThrowawayPostgres | { skipped: string }> {
  const bin = newestBin();
  if (!bin) {
    return { skipped: 'no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'search-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    const port = await freePort();
    run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
    run('pg_ctl', [
      '-D',
      join(dir, 'data'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
    const version = execFileSync(join(bin, 'postgres'), ['--version']).toString().trim();
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      version,
      stop: () => {
        try {
          run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { skipped: `PostgreSQL did not start (${why})` };
  }
}
