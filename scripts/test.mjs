#!/usr/bin/env node
// `npm test`, on 2 cores. First wave, two lanes: typecheck then lint, beside the build and
// Playwright (two files at a time, E2E_WORKERS). Second wave: the vitest projects (contract,
// worker, ui and server) in one run, two files at a time from any project, so no core idles
// while a project's last file ends: measured in CI, vitest beside Playwright slowed both (first
// wave 1,104 s instead of 645 s) and timed out a CPU-bound contract test. Runs every step even after a failure, and prints the time of each step and of
// each vitest project at the end, pass or fail, then what each failed step said about its
// failures (a CI log is often read from its tail).
//
//   node scripts/test.mjs            every step
//   node scripts/test.mjs unit e2e   only the steps named (typecheck, lint, unit, e2e)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const timesDir = mkdtempSync(join(tmpdir(), 'needl-test-times-'));

/** A vitest run of `projects`, writing their times (scripts/vitest-project-times.ts) to `file`. */
const vitest = (projects, file, extra = []) => ({
  cmd: 'npx',
  args: [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    ...extra,
    '--reporter=default',
    '--reporter=./scripts/vitest-project-times.ts',
  ],
  env: { VITEST_PROJECT_TIMES: join(timesDir, file) },
  times: join(timesDir, file),
});

const STEPS = {
  typecheck: { cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  lint: { cmd: 'npm', args: ['run', '--silent', 'lint'] },
  e2e: { cmd: 'npm', args: ['run', '--silent', 'test:e2e'] },
  unit: vitest(['contract', 'worker', 'ui', 'server'], 'unit.json'),
};

/** Waves run one after the other; a wave's lanes side by side; a lane's steps in order. */
const WAVES = [[['typecheck', 'lint'], ['e2e']], [['unit']]];

const known = Object.keys(STEPS);
for (const name of process.argv.slice(2)) {
  if (!known.includes(name)) {
    console.error(`test: unknown step "${name}" (steps: ${known.join(', ')})`);
    process.exit(2);
  }
}
const only = process.argv.slice(2);

const run = (name) =>
  new Promise((resolve) => {
    const step = STEPS[name];
    const start = Date.now();
    const child = spawn(step.cmd, step.args, {
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env },
    });
    const output = [];
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output.push(chunk);
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      output.push(chunk);
    });
    child.on('close', (code, signal) =>
      resolve({
        name,
        ok: code === 0,
        code: code ?? signal,
        ms: Date.now() - start,
        output: code === 0 ? '' : Buffer.concat(output).toString('utf8'),
      }),
    );
  });

/** A lane's steps in order, each even after one before it failed. */
const runLane = async (lane) => {
  const done = [];
  for (const name of lane) done.push(await run(name));
  return done;
};

// eslint-disable-next-line no-control-regex
const stripAnsi = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * The failures out of a step's output: Playwright's and vitest's numbered or marked failure
 * blocks (their first lines each), then their closing summary; otherwise the last lines.
 */
const failureSummary = (raw) => {
  const lines = stripAnsi(raw).split('\n');
  const picked = [];
  for (let i = 0; i < lines.length && picked.length < 120; i++) {
    // Playwright: "  1) [journeys] › offline.spec.ts:10:3 › ..."; vitest: " FAIL  server tests/..."
    if (/^\s+\d+\) \[/.test(lines[i]) || /^\s*FAIL\s/.test(lines[i])) {
      picked.push(...lines.slice(i, i + 14).filter((line) => line.trim() !== ''), '');
    }
  }
  const summaryAt = lines.findIndex((line) => /^\s+\d+ failed/.test(line));
  if (summaryAt >= 0) picked.push(...lines.slice(summaryAt, summaryAt + 20));
  return (picked.length > 0 ? picked : lines.slice(-40)).join('\n');
};

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const results = [];
const start = Date.now();
let failed = false;
for (const wave of WAVES) {
  const lanes = wave
    .map((lane) => lane.filter((name) => only.length === 0 || only.includes(name)))
    .filter((lane) => lane.length > 0);
  if (lanes.length === 0) continue;
  const done = (await Promise.all(lanes.map(runLane))).flat();
  results.push(...done);
  // Later waves run even after a failure: one run tells every step's result.
  if (done.some((r) => !r.ok)) failed = true;
}

console.log('\nTimes (typecheck and lint ran beside e2e, then the vitest projects):');
for (const r of results) {
  console.log(`  ${r.name.padEnd(22)}${seconds(r.ms)}${r.ok ? '' : `  FAILED (${r.code})`}`);
  if (!STEPS[r.name].times) continue;
  try {
    const projects = JSON.parse(readFileSync(STEPS[r.name].times, 'utf8'));
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
for (const r of results.filter((r) => !r.ok)) {
  console.log(`\nWhat ${r.name} said about its failures:`);
  console.log(failureSummary(r.output));
}
rmSync(timesDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
