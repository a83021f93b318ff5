#!/usr/bin/env node
// `npm start`'s build step: builds the app only when something it is built from is newer than
// the built app (dist/index.html), and says which. `FORCE_BUILD=1` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILT = 'dist/index.html';
/** What the app is built from: its folders and the files that configure the build. */
const INPUTS = [
  'src',
  'worker',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'scripts/compress-dist.ts',
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

const stale = () => {
  if (process.env.FORCE_BUILD === '1') return 'FORCE_BUILD=1';
  if (!existsSync(BUILT)) return 'no built app yet';
  const built = statSync(BUILT).mtimeMs;
  for (const input of INPUTS) {
    const found = newest(input);
    if (found.time > built) return `${found.file} changed since the last build`;
  }
  return null;
};

const why = stale();
if (why === null) {
  console.log(`build: the app in dist/ is newer than its sources; skipping the build`);
} else {
  console.log(`build: ${why}; building the app`);
  const run = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
