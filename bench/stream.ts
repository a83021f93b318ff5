import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { DEFAULT_PRODUCT } from '../contract/constants';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { DEMO_ACCOUNT } from '../server/auth/seed';
import { startServer } from '../server/start';
import { startFakeOpenAi } from '../tests/support/fake-openai';
import { longAnswer, promptPassages } from './stream-answer';
import {
  ANSWER_TARGET,
  askInApp,
  askInNaive,
  renderedChars,
  startRecording,
  typeUntilDone,
} from './stream-app';
import { buildBenchPages, serveBenchPages, BENCH_BASE } from './stream-build';
import { ttftOverCorpus } from './stream-corpus';
import { measureUpdateCost } from './stream-cost';
import { PROBE_SCRIPT, type PageFigures } from './stream-probe';
import { costRows, pageRows, printSummary, tabsRows, type Row } from './stream-report';
import { watchInTabs } from './stream-tabs';
import { measureTtft, signInToken, TTFT_USER_LIMITS } from './stream-ttft';

/**
 * bench/stream: the assistant's streaming in the real app in Chromium (issue 8 "Performance").
 *
 * A fake OpenAI-compatible server (tests/support/fake-openai.ts) streams a 200k-character
 * markdown answer made from the passages of its prompt (stream-answer.ts: headings,
 * paragraphs, lists, tables, code, [n] citations) at 2,000 tokens/s of 4 characters (25 s)
 * into the real server (server/start.ts, LLM_BASE_URL pointing at it, the demo workspace) and
 * the built app (dist/) in headless Chromium, signed in as the demo user on /ask-{product}/full.
 * Measured in the page (stream-probe.ts): long tasks, frame gaps, a keystroke into the question
 * box every 200 ms, and DONE reaching the tab to the final text painted. The same stream into
 * the naive renderer (stream-pages/naive.tsx: react-markdown over the whole answer per update)
 * is the baseline. Then the cost of one update at 10k and 200k characters (stream-cost.ts),
 * 8 tabs watching one session (stream-tabs.ts), and the extractive answerer's time to first
 * token over HTTP on the demo workspace and on STREAM_BENCH_DOCS generated documents
 * (1,000,000 by default; 0 skips it). Exits non-zero when a goal is missed.
 */

const PRODUCT = process.env.PRODUCT ?? DEFAULT_PRODUCT;
const CHARS = Number(process.env.STREAM_BENCH_CHARS ?? 200_000);
const TOKENS_PER_SECOND = 2_000;
const TOKEN_CHARS = 4;
const SETTLE_BEFORE_ASK_MS = 1_000;
const QUESTION = 'What did the companies report about quarterly net profit and revenue?';

const docsWanted = () => {
  const v = process.env.STREAM_BENCH_DOCS;
  const n = v === undefined || v === '' ? 1_000_000 : Number(v);
  if (!Number.isInteger(n) || (n !== 0 && n < 10_000)) {
    throw new Error(`STREAM_BENCH_DOCS must be 0 (skip) or a whole number >= 10000, got "${v}"`);
  }
  return n;
};

async function signIn(page: Page, origin: string) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel('E-mail').fill(DEMO_ACCOUNT.email);
  await page.getByLabel('Password').fill(DEMO_ACCOUNT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/feeds\//);
}

/**
 * The chat page as a user finds it before typing a question: started (its code loaded, the
 * history and the suggested questions shown) and left alone a second, so the figures are the
 * answer's, not the page's start-up.
 */
async function settled(page: Page) {
  await page.locator('.suggestion-card').first().waitFor();
  await page.waitForTimeout(SETTLE_BEFORE_ASK_MS);
}

const f1 = (n: number | null) => (n === null || Number.isNaN(n) ? '-' : n.toFixed(1));
const wentWhere = (f: PageFigures) =>
  `frame gaps over 20 ms: ${f.slowFrames.streaming} while streaming, ${f.slowFrames.afterDone} after DONE; long tasks ending after DONE: ${f.longTasksAfterDone} of ${f.longTasks}`;

async function main() {
  const docs = docsWanted();
  let reply = '';
  const fake = await startFakeOpenAi({
    script: {
      reply: (request) => {
        const system = request.body.messages?.find((m) => m.role === 'system')?.content ?? '';
        reply = longAnswer(promptPassages(system), CHARS);
        return reply;
      },
      tokenChars: TOKEN_CHARS,
      tokensPerSecond: TOKENS_PER_SECOND,
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'stream-bench-'));
  const pagesDir = await buildBenchPages(PRODUCT);
  const rows: Row[] = [];
  let server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    product: PRODUCT,
    ingest: false,
    llm: { baseUrl: fake.baseUrl, model: 'bench-model' },
    log: () => {},
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    console.log(`bench/stream: ${browser.version()} (${CHROMIUM}), 2,000 tokens/s of 4 characters`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(PROBE_SCRIPT);
    await serveBenchPages(context, server.url, pagesDir);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page: ${error.message}`));
    await signIn(page, server.url);

    // 1. Ours: the app's chat page.
    await page.goto(`${server.url}/ask-${PRODUCT}/full`);
    await settled(page);
    await startRecording(page, ANSWER_TARGET);
    const ours = await typeUntilDone(page, await askInApp(page, QUESTION));
    const oursChars = await renderedChars(page, ANSWER_TARGET);
    const answer = reply;
    console.log(
      `\nthe app: a ${answer.length.toLocaleString('en')}-character answer in ${f1(ours.streamSeconds)} s, ${ours.updates} updates to the tab, ${oursChars.toLocaleString('en')} characters of text rendered`,
    );
    console.log(`  ${wentWhere(ours)}`);

    // 2. The baseline: the same question streamed into the naive renderer.
    const naivePage = await context.newPage();
    naivePage.on('pageerror', (error) => console.error(`naive page: ${error.message}`));
    await naivePage.goto(`${server.url}${BENCH_BASE}naive.html`);
    await naivePage.waitForTimeout(SETTLE_BEFORE_ASK_MS);
    await startRecording(naivePage, '#answer');
    const token = await signInToken(server.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const naive = await typeUntilDone(
      naivePage,
      await askInNaive(naivePage, { product: PRODUCT, prompt: QUESTION, token }),
    );
    console.log(
      `naive: the same answer in ${f1(naive.streamSeconds)} s, ${(await renderedChars(naivePage, '#answer')).toLocaleString('en')} characters of text rendered`,
    );
    console.log(`  ${wentWhere(naive)}`);
    await naivePage.close();

    rows.push(...pageRows(ours, naive));

    // 3. Cost of one update, in Chromium with the app's code.
    const cost = await measureUpdateCost(context, server.url, answer);
    rows.push(...costRows(cost));
    await context.close();

    // 4. 8 tabs watching one streaming session.
    const tabs = await watchInTabs({
      browser,
      serverUrl: server.url,
      product: PRODUCT,
      fake,
      question: QUESTION,
      signIn,
    });
    rows.push(...tabsRows(tabs));
  } finally {
    await browser.close();
    await server.close();
    await fake.close();
    rmSync(pagesDir, { recursive: true, force: true });
  }

  // 5. Time to first token of the extractive answerer (no model configured).
  console.log('\nextractive answerer, time to first token over HTTP');
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    product: PRODUCT,
    ingest: false,
    log: () => {},
    userLimits: TTFT_USER_LIMITS,
  });
  try {
    const token = await signInToken(server.url, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    const demo = await measureTtft({
      label: 'demo workspace',
      base: server.url,
      product: PRODUCT,
      token,
    });
    rows.push({
      what: 'first token, demo workspace (p50 / p95)',
      ours: `${f1(demo.p50)} / ${f1(demo.p95)} ms`,
      goal: '',
      baseline: '',
    });
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (docs > 0) {
    console.log(`\n${docs.toLocaleString('en')} generated documents`);
    const big = await ttftOverCorpus({ docs, product: PRODUCT });
    rows.push(
      {
        what: `first token, ${docs.toLocaleString('en')} docs, user's data (p50 / p95)`,
        ours: `${f1(big.mine.p50)} / ${f1(big.mine.p95)} ms`,
        goal: '',
        baseline: '',
      },
      {
        what: '  the web: the whole corpus (p50 / p95)',
        ours: `${f1(big.web.p50)} / ${f1(big.web.p95)} ms`,
        goal: '',
        baseline: '',
      },
    );
  } else {
    console.log('\nSTREAM_BENCH_DOCS=0: the generated corpus is skipped');
  }

  if (!printSummary(rows)) {
    console.error('\nbench/stream: a goal was missed');
    process.exitCode = 1;
  }
}

await main();
