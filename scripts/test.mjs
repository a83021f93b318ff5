#!/usr/bin/env node
// `npm test`: typecheck and lint side by side, then vitest (its projects side by side in one
// pool, vitest.config.ts), then the build and Playwright; stops at the first failure and prints
// the time of each step and of each vitest project at the end, whether it passed or not.
//
//   node scripts/test.mjs            every step
//   node scripts/test.mjs unit e2e   only the steps named (typecheck, lint, unit, e2e)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const timesDir = mkdtempSync(join(tmpdir(), 'needl-test-times-'));
const projectTimesFile = join(timesDir, 'projects.json');

/** Steps run in waves: the steps of a wave side by side, each wave after the last passed. */
const WAVES = [
  [
    { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
    { name: 'lint', cmd: 'npm', args: ['run', '--silent', 'lint'] },
  ],
  [
    {
      name: 'unit',
      cmd: 'npx',
      args: [
        'vitest',
        'run',
        '--reporter=default',
        '--reporter=./scripts/vitest-project-times.ts',
      ],
      env: { VITEST_PROJECT_TIMES: projectTimesFile },
    },
  ],
  [{ name: 'e2e', cmd: 'npm', args: ['run', '--silent', 'test:e2e'] }],
];

const only = process.argv.slice(2);
const known = WAVES.flat().map((s) => s.name);
for (const name of only) {
  if (!known.includes(name)) {
    console.error(`test: unknown step "${name}" (steps: ${known.join(', ')})`);
    process.exit(2);
  }
}

const run = (step) =>
  new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(step.cmd, step.args, {
      stdio: 'inherit',
      env: { ...process.env, ...step.env },
    });
    child.on('exit', (code, signal) =>
      resolve({ name: step.name, ok: code === 0, code: code ?? signal, ms: Date.now() - start }),
    );
  });

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const results = [];
const start = Date.now();
let failed = false;
for (const wave of WAVES) {
  const steps = wave.filter((s) => only.length === 0 || only.includes(s.name));
  if (steps.length === 0) continue;
  const done = await Promise.all(steps.map(run));
  results.push(...done);
  if (done.some((r) => !r.ok)) {
    failed = true;
    break;
  }
}

console.log('\nTimes (steps of a wave run side by side):');
for (const r of results) {
  console.log(`  ${r.name.padEnd(22)}${seconds(r.ms)}${r.ok ? '' : `  FAILED (${r.code})`}`);
  if (r.name !== 'unit') continue;
  try {
    const projects = JSON.parse(readFileSync(projectTimesFile, 'utf8'));
    for (const [name, p] of Object.entries(projects).sort()) {
      const label = `    ${name} (${p.files} files, ${p.tests} tests)`;
      console.log(
        `${label.padEnd(40)}${seconds(p.lastEnd - p.firstStart)} span, ${seconds(p.fileMs).trim()} summed over files`,
      );
    }
  } catch {
    // vitest stopped before its reporter wrote the times
  }
}
console.log(`  ${'total'.padEnd(22)}${seconds(Date.now() - start)}`);
rmSync(timesDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
