import type { Page } from 'playwright-core';
import { figuresOf, type PageFigures, type StreamProbe } from './stream-probe';

/**
 * Driving one streamed answer in a page of bench/stream (the app's chat page or the naive
 * baseline) and reading its figures: a keystroke is typed into the page's question box every
 * 200 ms while the answer streams, until DONE reached the page; then the page is left to
 * settle, and the answer's last change after DONE dates its final text.
 */

export const KEYSTROKE_EVERY_MS = 200;
/** The probe watches frames this long after DONE (stream-probe.ts markDone). */
const SETTLE_MS = 3_200;
const STREAM_TIMEOUT_MS = 180_000;

export const ANSWER_TARGET = '.answer-markdown';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const readProbe = (page: Page) =>
  page.evaluate(
    () =>
      JSON.parse(
        JSON.stringify((window as unknown as { __stream: StreamProbe }).__stream),
      ) as StreamProbe,
  );

export async function startRecording(page: Page, target: string) {
  await page.evaluate((t) => {
    const p = (window as unknown as { __stream: StreamProbe }).__stream;
    p.target = t;
    p.recording = true;
  }, target);
}

/**
 * Types into the focused question box every 200 ms until DONE reached the page (or a
 * failure), then waits for the page to settle and answers the figures. `asked` is the page's
 * clock when the question left.
 */
export async function typeUntilDone(page: Page, asked: number): Promise<PageFigures> {
  const letters = 'streamingbench';
  const deadline = Date.now() + STREAM_TIMEOUT_MS;
  for (let k = 0; ; k++) {
    const done = await page.evaluate(
      () => (window as unknown as { __stream: StreamProbe }).__stream.done !== null,
    );
    if (done) break;
    if (Date.now() > deadline) throw new Error('bench/stream: no DONE within 180 s');
    const at = Date.now();
    await page.keyboard.press(letters[k % letters.length]);
    await sleep(Math.max(0, KEYSTROKE_EVERY_MS - (Date.now() - at)));
  }
  await sleep(SETTLE_MS);
  return figuresOf(await readProbe(page), asked);
}

/** The app's chat page: types the question and sends it with Enter; answers the page's clock. */
export async function askInApp(page: Page, question: string): Promise<number> {
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.click();
  await box.fill(question);
  const asked = await page.evaluate(() => performance.now());
  await box.press('Enter');
  return asked;
}

/** The naive page asks through its own fetch; focus goes to its question box for the typing. */
export async function askInNaive(
  page: Page,
  input: { product: string; prompt: string; token: string },
): Promise<number> {
  await page.getByRole('textbox', { name: 'Ask a question' }).click();
  return page.evaluate((ask) => {
    const started = performance.now();
    void (window as unknown as { __naive: { ask(a: typeof ask): Promise<void> } }).__naive
      .ask(ask)
      .catch((err: unknown) => console.error(`naive ask failed: ${String(err)}`));
    return started;
  }, input);
}

/** The final text's length as rendered (a check that both pages show the same answer). */
export const renderedChars = (page: Page, target: string) =>
  page.evaluate((t) => document.querySelector(t)?.textContent?.length ?? 0, target);
