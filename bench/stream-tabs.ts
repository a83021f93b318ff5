import type { Browser, Page } from 'playwright-core';
import type { FakeOpenAi } from '../tests/support/fake-openai';
import { ANSWER_TARGET, askInApp, readProbe, startRecording } from './stream-app';
import { PROBE_SCRIPT, type StreamProbe } from './stream-probe';
import { startCountingProxy } from './stream-proxy';

/**
 * 8 tabs (pages of one browser context, so one SharedWorker) watching one streaming session:
 * the first asks on the chat page, the other seven open the session's address while it streams.
 * Counted where the requests arrive: the ask stream's requests at a proxy in front of the real
 * server, and the model's requests at the fake OpenAI server. Each tab must have received the
 * stream's patches and show the same final text.
 */

export type TabsFigures = {
  tabs: number;
  askRequests: number;
  modelRequests: number;
  /** Tabs that received streamed patches, and that ended with the first tab's final text. */
  streamed: number;
  sameFinal: number;
};

const TABS = 8;

export async function watchInTabs(opts: {
  browser: Browser;
  serverUrl: string;
  product: string;
  fake: FakeOpenAi;
  question: string;
  signIn: (page: Page, origin: string) => Promise<void>;
}): Promise<TabsFigures> {
  const proxy = await startCountingProxy(opts.serverUrl, `/api/ml/ask-${opts.product}`);
  const context = await opts.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(PROBE_SCRIPT);
    const full = `${proxy.url}/ask-${opts.product}/full`;
    const first = await context.newPage();
    await opts.signIn(first, proxy.url);
    await first.goto(full);
    await startRecording(first, ANSWER_TARGET);
    const modelBefore = opts.fake.requests.length;
    const askBefore = proxy.count();
    await askInApp(first, opts.question);
    await first.waitForURL(/sessionId=/);
    const sessionId = new URL(first.url()).searchParams.get('sessionId')!;
    const pages = [first];
    for (let i = 1; i < TABS; i++) {
      const page = await context.newPage();
      await page.goto(`${full}?sessionId=${encodeURIComponent(sessionId)}`);
      await startRecording(page, ANSWER_TARGET);
      pages.push(page);
    }
    const streamingWhenAllOpen = await first.evaluate(
      () => (window as unknown as { __stream: StreamProbe }).__stream.done === null,
    );
    await first.waitForFunction(
      () => (window as unknown as { __stream: StreamProbe }).__stream.done !== null,
      null,
      { timeout: 180_000, polling: 500 },
    );
    await first.waitForTimeout(2_000);
    const signature = (p: Page) =>
      p.evaluate(() =>
        (window as unknown as { __stream: { signature(): string } }).__stream.signature(),
      );
    const final = await signature(first);
    // Every tab shows the same final text (a tab that got no DONE patch shows it from the
    // session: that one is counted as not streamed below).
    const finals = await Promise.all(
      pages.map((p) =>
        p
          .waitForFunction(
            (want) =>
              (window as unknown as { __stream: { signature(): string } }).__stream.signature() ===
              want,
            final,
            { timeout: 60_000, polling: 250 },
          )
          .then(() => signature(p))
          .catch(() => signature(p)),
      ),
    );
    const probes = await Promise.all(pages.map(readProbe));
    if (!streamingWhenAllOpen) {
      console.log('  (the answer had finished before all 8 tabs were open: patches not checked)');
    }
    return {
      tabs: pages.length,
      askRequests: proxy.count() - askBefore,
      modelRequests: opts.fake.requests.length - modelBefore,
      streamed: probes.filter((p) => p.firstChunk !== null && p.done !== null).length,
      sameFinal: finals.filter((f) => f === final && !f.startsWith('0:')).length,
    };
  } finally {
    await context.close();
    await proxy.close();
  }
}
