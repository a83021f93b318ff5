#!/usr/bin/env node
// `npm start`'s build step: builds the app and the server, each only when something it is built
// from is newer than what was built, and says which. `FORCE_BUILD=1` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `npm start` runs, each with what it is built from (folders, and the files that configure
 * its build) and the script that builds it.
 */
const TARGETS = [
  {
    name: 'the app',
    built: 'dist/index.html',
    script: 'build',
    inputs: [
      'src',
      'worker',
      'contract',
      'public',
      'index.html',
      'vite.config.ts',
      'package.json',
      'package-lock.json',
      'scripts/compress-dist.ts',
    ],
  },
  {
    name: 'the server',
    built: 'dist-server/main.mjs',
    script: 'build:server',
    inputs: ['server', 'contract', 'package.json', 'package-lock.json', 'tsconfig.json'],
  },
];

/** The newest modification time under `path` (a file or a folder), with the file holding it. */
const newest = (path) => {
  if (!existsSync(path)) return { time: 0, file: path };
  const stat = statSync(path);
  if (!stat.isDirectory()) return { time: stat.mtimeMs, file: path };
  let best = { time: 0, file: path };
  for (const entry of readdirSync(path)) {
    if (entry.endsWith('.md')) continue; // notes, not built
    const found = newest(join(path, entry));
    if (found.time > best.time) best = found;
  }
  return best;
};

const stale = (target) => {
  if (process.env.FORCE_BUILD === '1') return 'FORCE_BUILD=1';
  if (!existsSync(target.built)) return `no built ${target.name.replace('the ', '')} yet`;
  const built = statSync(target.built).mtimeMs;
  for (const input of target.inputs) {
    const found = newest(input);
    if (found.time > built) return `${found.file} changed since the last build`;
  }
  return null;
};

for (const target of TARGETS) {
  const why = stale(target);
  if (why === null) {
    console.log(`build: ${target.name} in ${target.built} is newer than its sources; skipping`);
    continue;
  }
  console.log(`build: ${why}; building ${target.name}`);
  const run = spawnSync('npm', ['run', '--silent', target.script], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
