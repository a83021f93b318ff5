import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertQuokkaDocs, WIRE } from './assistant-support';
import { createAccount, newUser, startTestServer, type TestServer } from './support';

/**
 * `npm run ws -- ask`: the CLI (worker/cli.ts, run as `npm run ws` runs it) against the real
 * server in this process: the answer streams to stdout, then its citations.
 */
const run = promisify(execFile);
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
let env: TestServer;
let stateDir: string;

beforeAll(async () => {
  env = await startTestServer({ ingest: false });
  stateDir = mkdtempSync(join(tmpdir(), 'ws-cli-ask-'));
  await insertQuokkaDocs(env);
});
afterAll(async () => {
  await env?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const ws = (...args: string[]) =>
  run(TSX, ['worker/cli.ts', ...args], {
    env: { ...process.env, WS_BASE_URL: env.baseUrl, WS_STATE_DIR: stateDir },
    timeout: 60_000,
  });

describe('npm run ws -- ask', () => {
  it('streams the answer, then its citations and follow-up questions', async () => {
    const user = newUser();
    await createAccount(env.baseUrl, user);
    await ws('signin', user.email, user.password);
    await ws('follow', WIRE);

    const { stdout } = await ws('ask', 'What do quokkas eat?');
    const [answer, followups] = stdout.split('Follow-up questions:\n');
    expect(answer).toBe(
      [
        'Quokkas eat leaves, grasses and succulent plants on Rottnest Island. [1]',
        '',
        '[1] Quokka diet study — Markets Wire, 2024-06-01',
        '    https://news.example.com/quokka-diet',
        '',
        '',
      ].join('\n'),
    );
    // The follow-ups are the server's to word: one a line.
    expect(followups).toMatch(/^( {2}- \S.*\?\n)+$/);

    // Search mode lists the matching documents.
    const search = await ws('ask', 'quokka census', '--search');
    expect(search.stdout).toContain('[1] Quokka census results — Markets Wire, 2024-06-01');
  });

  it('fails with the answer error, and refuses a bad option', async () => {
    const user = newUser();
    await createAccount(env.baseUrl, user);
    await ws('signin', user.email, user.password);
    await expect(ws('ask', 'quokkas', '--doc', 'no-such-doc')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^ws: .*no-such-doc/),
    });
    await expect(ws('ask', 'quokkas', '--soon')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('ws: ask: unknown option "--soon"'),
    });
  });
});
