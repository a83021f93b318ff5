import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsItem, serverDocs } from './feed-support';
import { createAccount, newUser, startTestServer, type TestServer } from './support';

/**
 * `npm run ws -- search`: the CLI (worker/cli.ts, through tsx's loader as `npm run ws` runs it)
 * against the real server in this process, its session kept in a throwaway state directory.
 * Node with tsx's loader, not the tsx CLI: the CLI starts a second Node process of its own for
 * each of the six commands.
 */
const run = promisify(execFile);
const T0 = 1_717_200_000;
let env: TestServer;
let stateDir: string;

beforeAll(async () => {
  env = await startTestServer({ ingest: false });
  stateDir = mkdtempSync(join(tmpdir(), 'ws-cli-'));
  const docs = await serverDocs(env);
  await docs.insert(
    'demo_markets_wire',
    [1, 2, 3].map((i) => newsItem(`pangolin-${i}`, `Pangolin tracking ${i}`, T0 + i * 60)),
  );
  await docs.close();
});
afterAll(async () => {
  await env?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const ws = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'worker/cli.ts', ...args], {
    env: { ...process.env, WS_BASE_URL: env.baseUrl, WS_STATE_DIR: stateDir },
    timeout: 60_000,
  });

describe('npm run ws -- search', () => {
  it('prints the results, the count and the category tabs as JSON', async () => {
    const user = newUser();
    await createAccount(env.baseUrl, user);
    await ws('signin', user.email, user.password);
    await ws('follow', 'demo_markets_wire');

    const { stdout } = await ws('search', 'pangolin', '--limit', '2');
    const printed = JSON.parse(stdout) as Record<string, unknown> & {
      results: Array<Record<string, unknown>>;
    };
    expect(printed).toMatchObject({
      q: 'pangolin',
      searched_q: 'pangolin',
      corrected_q: null,
      count: 3,
      count_exact: true,
    });
    expect(printed.category_tabs).toEqual([
      { key: 'rss_news', label: 'News', data: 3, icon: 'newspaper' },
      { key: 'india_capital_markets', label: 'Indian Exchange', data: 0, icon: 'landmark' },
      { key: 'us_capital_markets', label: 'US Exchange', data: 0, icon: 'landmark' },
      { key: 'research', label: 'Research', data: 0, icon: 'flask' },
      { key: 'webclips', label: 'Web Clips', data: 0, icon: 'scissors' },
      { key: 'documents', label: 'Documents', data: 0, icon: 'file-text' },
    ]);
    expect(printed.results.map(({ document_id, ...rest }) => [typeof document_id, rest])).toEqual([
      [
        'string',
        {
          title_label: 'Pangolin tracking 3',
          source: 'demo_markets_wire',
          unix: T0 + 180,
          highlights: ['<em>Pangolin</em> tracking 3.'],
        },
      ],
      [
        'string',
        {
          title_label: 'Pangolin tracking 2',
          source: 'demo_markets_wire',
          unix: T0 + 120,
          highlights: ['<em>Pangolin</em> tracking 2.'],
        },
      ],
    ]);

    // A misspelling is searched as the index's own spelling, and says so.
    const corrected = JSON.parse((await ws('search', 'pangolni', '--limit', '1')).stdout) as {
      results: Array<{ title_label: string }>;
    };
    expect(corrected).toMatchObject({ corrected_q: 'pangolin', searched_q: 'pangolin', count: 3 });
    expect(corrected.results.map((r) => r.title_label)).toEqual(['Pangolin tracking 3']);

    const inTab = await ws('search', 'pangolin', '--tab', 'research');
    expect(JSON.parse(inTab.stdout)).toMatchObject({ count: 0, results: [] });
  });

  it('names what is wrong with its arguments', async () => {
    const failed = await ws('search', 'pangolin', '--tab', 'nowhere').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      'ws: search: --tab must be one of rss_news, india_capital_markets, us_capital_markets,',
    );
  });
});
