#!/usr/bin/env node
// `npm test`: in a first wave, typecheck then lint beside the build and Playwright (one
// browser, one server: it leaves the other core to tsc and ESLint); then vitest alone (its
// projects side by side in one pool of two workers, vitest.config.ts), whose timing-sensitive
// server suites want the machine to themselves. Runs every wave even after a failure, and
// prints the time of each step and of each vitest project at the end, pass or fail, then what
// each failed step said about its failures (a CI log is often read from its tail).
//
//   node scripts/test.mjs            every step
//   node scripts/test.mjs unit e2e   only the steps named (typecheck, lint, unit, e2e)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const timesDir = mkdtempSync(join(tmpdir(), 'needl-test-times-'));
const projectTimesFile = join(timesDir, 'projects.json');

const STEPS = {
  typecheck: { cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  lint: { cmd: 'npm', args: ['run', '--silent', 'lint'] },
  e2e: { cmd: 'npm', args: ['run', '--silent', 'test:e2e'] },
  unit: {
    cmd: 'npx',
    args: ['vitest', 'run', '--reporter=default', '--reporter=./scripts/vitest-project-times.ts'],
    env: { VITEST_PROJECT_TIMES: projectTimesFile },
  },
};

/** Waves run one after the other; a wave's lanes side by side; a lane's steps in order. */
const WAVES = [[['typecheck', 'lint'], ['e2e']], [['unit']]];

const only = process.argv.slice(2);
const known = Object.keys(STEPS);
for (const name of only) {
  if (!known.includes(name)) {
    console.error(`test: unknown step "${name}" (steps: ${known.join(', ')})`);
    process.exit(2);
  }
}

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

/** A lane's steps in order, up to the first that fails. */
const runLane = async (lane) => {
  const done = [];
  for (const name of lane) {
    const result = await run(name);
    done.push(result);
    if (!result.ok) break;
  }
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

console.log('\nTimes (typecheck and lint ran beside e2e, then unit alone):');
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
for (const r of results.filter((r) => !r.ok)) {
  console.log(`\nWhat ${r.name} said about its failures:`);
  console.log(failureSummary(r.output));
}
rmSync(timesDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
