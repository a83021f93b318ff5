import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium';
import { openDatabase } from '../server/db/database';
import { startServer } from '../server/start';
import { iso } from '../server/time';
import { createBenchSources, fillBenchFeed, followBenchSources } from './feed-corpus';
import {
  FIRST_WINDOW,
  NEXT_CARD,
  PROBE_SCRIPT,
  READ_TAG_WHOLE,
  SCROLL_DEEP,
  SHOW_AND_WATCH,
  TAG_CARD,
  type OrganiseProbe,
} from './organise-page';

/**
 * bench/organise: tags in the real app in Chromium, against the real server (issue 21).
 *
 * 1. A tag holding 100k documents (seeded in the database; the app pulls the links, each with
 *    its document's card, into its mirror): /needlbox/tags/all after a reload, from the list's
 *    "Loading…" to its first card painted, and the tag chosen there, from the click to its
 *    first card painted (a window of the mirror's (tag, time) index), and the list scrolled to
 *    90% of its depth, from the scroll to a card there painted; beside the baseline in the same
 *    page: the tag's documents read whole from the mirror (every link by the tag's index, with
 *    its card) and every card rendered.
 * 2. Tagging 1,000 documents in a row from the UI (the card's tag picker, one after another in
 *    the home feed) with a second tab open on the same feed: each pill painted in the acting tab
 *    within one frame, shown in the second tab within 250 ms, and the long tasks (>= 50 ms) on
 *    either tab's main thread meanwhile; beside the baseline, a tag set through the API (what a
 *    tab waiting for the server before painting would pay).
 *
 * Run: `npm run bench:organise` (builds to dist/), or with a build elsewhere
 * `DIST_DIR=<dir> npx tsx bench/organise.ts`.
 *
 * Goals: first window <= 100 ms and >= 10x faster than the baseline; every change painted within
 * one frame in the acting tab and within 250 ms in the other; 0 long tasks. Exits non-zero when
 * one is missed. ORGANISE_BENCH_DOCS (100,000) and ORGANISE_BENCH_TAGS (1,000) shrink the runs.
 */

const DOCS = Number(process.env.ORGANISE_BENCH_DOCS ?? 100_000);
const IN_A_ROW = Number(process.env.ORGANISE_BENCH_TAGS ?? 1_000);
const RELOADS = 5;
const BIG_TAG = { id: 'bench-hundred-thousand', name: 'Hundred thousand' };
const ROW_TAG = 'Bench row';
const USER = { name: 'Bench Organiser', email: 'organise@needl.ai', password: 'bench-password-1' };
const FRAME_MS = 1000 / 60;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const f1 = (n: number) => n.toFixed(1);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

let missed = false;
const goal = (ok: boolean, what: string) => {
  console.log(`  ${ok ? 'meets' : 'MISSES'}: ${what}`);
  if (!ok) missed = true;
};

/** In the page: whether the list of `op` has asked its first window and painted a card. */
const asked = (op: string) =>
  performance.getEntriesByName(`list:${op}`).length > 0 &&
  ((window as unknown as { __organise: OrganiseProbe }).__organise.firstListCard ?? -1) > 0;

const probe = (page: Page) =>
  page.evaluate(() => (window as unknown as { __organise: OrganiseProbe }).__organise);

/** A record of the page's mirror, by store and key (undefined when not held). */
const mirrorRecord = (page: Page, store: string, key: string) =>
  page.evaluate(
    async ([s, k]) => {
      const open = indexedDB.open('needl-workspace');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        if (!db.objectStoreNames.contains(s)) return undefined;
        const req = db.transaction(s).objectStore(s).get(k);
        return await new Promise<unknown>((resolve) => (req.onsuccess = () => resolve(req.result)));
      } finally {
        db.close();
      }
    },
    [store, key] as const,
  );

async function until(what: string, ok: () => Promise<boolean>, ms = 300_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`bench/organise: ${what} did not happen`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function signIn(page: Page, base: string) {
  await page.goto(`${base}/auth/signin`);
  await page.getByLabel('E-mail').fill(USER.email);
  await page.getByLabel('Password').fill(USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/feeds\//);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'organise-bench-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ingest: false,
    log: () => {},
    ...(process.env.DIST_DIR ? { distDir: process.env.DIST_DIR } : {}),
  });
  const { db } = await openDatabase({ dataDir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const signedUp = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': USER.email },
      body: JSON.stringify(USER),
    });
    if (!signedUp.ok) throw new Error(`bench/organise: sign-up answered ${signedUp.status}`);
    let { id_token: token } = (await signedUp.json()) as { id_token: string };
    const api = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const answer = await fetch(`${server.url}/api${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          token,
          'app-type': 'main',
          'x-request-origin': 'web-app',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (answer.status === 403) {
        // The id token is short-lived and a full run is long: sign in again, then retry.
        const signedIn = await fetch(`${server.url}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: USER.email, password: USER.password }),
        });
        if (!signedIn.ok) throw new Error(`bench/organise: sign-in answered ${signedIn.status}`);
        token = ((await signedIn.json()) as { id_token: string }).id_token;
        return api(method, path, body);
      }
      if (!answer.ok) throw new Error(`bench/organise: ${path} answered ${answer.status}`);
      return answer.json() as Promise<unknown>;
    };
    const { id: userId } = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', USER.email)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    await createBenchSources(db, now);
    await followBenchSources(db, userId, now);
    const rate = await fillBenchFeed(db, { from: 0, to: DOCS, now, short: true, batch: 5000 });
    // The big tag: every document of the feed, linked in the database at once.
    await db
      .insertInto('user_tags')
      .values({
        user_id: userId,
        id: BIG_TAG.id,
        name: BIG_TAG.name,
        name_key: BIG_TAG.name.toLowerCase(),
        created_at: iso(now),
      })
      .execute();
    await sql`insert into document_tags (user_id, tag_id, document_id, created_at)
      select ${userId}, ${BIG_TAG.id}, id, ${iso(now)} from documents
      where source_id like 'bench-%'`.execute(db);
    const linked = await db
      .selectFrom('document_tags')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // The tag the UI puts on documents one after another.
    await api('POST', '/tags', { tag: ROW_TAG });

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(PROBE_SCRIPT);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page: ${error.message}`));
    console.log(`bench/organise: Chromium ${browser.version()} (${CHROMIUM})`);
    console.log(
      `server: ${DOCS.toLocaleString('en')} documents stored at ${f1(rate)} documents/s; ${Number(linked.n).toLocaleString('en')} of them in "${BIG_TAG.name}"`,
    );
    console.log(`load average at the start: ${load()}`);
    await signIn(page, server.url);

    // The mirror holds the feed's cards (the baseline's) and every link of the tags.
    await page.goto(`${server.url}/feeds/home`);
    await until('the feed and the links in the mirror', async () => {
      const feed = (await mirrorRecord(page, 'feed_entries', '#home')) as
        { complete?: boolean } | undefined;
      const links = (await mirrorRecord(page, 'document_tags', '\u0000list')) as
        { complete?: boolean } | undefined;
      return feed?.complete === true && links?.complete === true;
    });

    // 1. The tag page.
    console.log(
      `\nA tag holding ${DOCS.toLocaleString('en')} documents (their links and cards in the mirror)`,
    );
    const allTags: number[] = [];
    const fromNavigation: number[] = [];
    const chosen: number[] = [];
    const deep: Array<{ took: number; at: number }> = [];
    /** The list's first window, asked to painted (use-windowed-list's mark to the first card). */
    const tagAsked: number[] = [];
    // The first visit warms the page (the mirror's upgrade, the build's files); measured after.
    for (let i = 0; i <= RELOADS; i++) {
      await page.goto(`${server.url}/needlbox/tags/all`);
      await page.waitForFunction(
        () => ((window as unknown as { __organise: OrganiseProbe }).__organise.firstCard ?? -1) > 0,
        undefined,
        { timeout: 120_000 },
      );
      const p = await probe(page);
      if (i > 0) {
        allTags.push(p.firstCard! - p.loadingAt!);
        fromNavigation.push(p.firstCard!);
        await page.waitForFunction(asked, 'tags.window', { timeout: 120_000 });
        tagAsked.push((await page.evaluate(`(${FIRST_WINDOW})('tags.window')`)) as number);
      }
      // The tag chosen: a new list of its documents alone.
      await page.evaluate(() => {
        const w = window as unknown as { __organise: OrganiseProbe };
        w.__organise.loadingAt = null;
        w.__organise.firstCard = null;
      });
      const button = page
        .getByRole('group', { name: 'Show documents tagged' })
        .getByRole('button', { name: BIG_TAG.name });
      const clickedAt = await button.evaluate((el) => {
        const at = performance.now();
        (el as HTMLButtonElement).click();
        return at;
      });
      await page.waitForFunction(
        () => ((window as unknown as { __organise: OrganiseProbe }).__organise.firstCard ?? -1) > 0,
        undefined,
        { timeout: 120_000 },
      );
      if (i > 0) chosen.push((await probe(page)).firstCard! - clickedAt);
      // Any depth: the list scrolled to 90% of the tag.
      const scrolled = (await page.evaluate(`(${SCROLL_DEEP})(0.9)`)) as
        { took: number; at: number } | { error: string };
      if ('error' in scrolled) throw new Error(`bench/organise: ${scrolled.error}`);
      if (i > 0) deep.push(scrolled);
    }
    // The reference: the feed's first window (the same 100k documents), asked to painted.
    const feedAsked: number[] = [];
    for (let i = 0; i <= RELOADS; i++) {
      await page.goto(`${server.url}/feeds/home`);
      await page.waitForFunction(asked, 'feed.window', { timeout: 120_000 });
      if (i > 0)
        feedAsked.push((await page.evaluate(`(${FIRST_WINDOW})('feed.window')`)) as number);
    }
    const baselines: Array<{ took: number; rendered: number; links: number }> = [];
    for (let i = 0; i < 3; i++) {
      baselines.push(await page.evaluate(`(${READ_TAG_WHOLE})(${JSON.stringify(BIG_TAG.id)})`));
    }
    const baseline = median(baselines.map((b) => b.took));
    const firstWindow = median(chosen);
    console.log(
      `  the tag chosen on /needlbox/tags/all, click to first card painted (median of ${RELOADS}): ${f1(firstWindow)} ms, from the mirror`,
    );
    console.log(
      `  /needlbox/tags/all after a reload, "Loading…" to first card painted (median of ${RELOADS}): ${f1(median(allTags))} ms (${f1(median(fromNavigation))} ms from navigation start, with the app's boot)`,
    );
    console.log(
      `  the list scrolled to 90% of the tag, scroll to a card there painted (median of ${RELOADS}): ${f1(median(deep.map((d) => d.took)))} ms (rows ${deep.map((d) => d.at.toLocaleString('en')).join(', ')})`,
    );
    console.log(
      `  baseline, the tag's documents read whole from the mirror (${baselines[0].links.toLocaleString('en')} links, ${baselines[0].rendered.toLocaleString('en')} cards) and rendered (median of 3): ${f1(baseline)} ms`,
    );
    console.log(
      `  first window asked to painted after a reload (median of ${RELOADS}): the tag page ${f1(median(tagAsked))} ms, the feed (reference, same run) ${f1(median(feedAsked))} ms`,
    );
    console.log(`  ratio baseline / ours: ${f1(baseline / firstWindow)}x`);
    goal(firstWindow <= 100, 'first window painted <= 100 ms');
    goal(baseline / firstWindow >= 10, 'first window >= 10x faster than the baseline');
    goal(median(allTags) <= 100, '/needlbox/tags/all first window painted <= 100 ms');

    // 2. Tagging in a row, with a second tab.
    console.log(`\nTagging ${IN_A_ROW.toLocaleString('en')} documents in a row from the UI`);
    await page.goto(`${server.url}/feeds/home`);
    const other = await context.newPage();
    await other.goto(`${server.url}/feeds/home`);
    for (const p of [page, other]) await p.locator('article.result-card').first().waitFor();
    const phaseStart = await Promise.all(
      [page, other].map((p) => p.evaluate(() => performance.now())),
    );
    const frames: number[] = [];
    const painted: number[] = [];
    const seen: number[] = [];
    let unpressed = 0;
    for (let done = 0; done < IN_A_ROW;) {
      const next = (await page.evaluate(`(${NEXT_CARD})(${JSON.stringify(ROW_TAG)})`)) as
        { deeplink: string; scrollTop: number } | { wait: true };
      if ('wait' in next) {
        await page.waitForTimeout(20);
        continue;
      }
      const args = JSON.stringify([next.deeplink, ROW_TAG, next.scrollTop]);
      await until('the card in the second tab', async () =>
        Boolean(await other.evaluate(`(${SHOW_AND_WATCH})(${args})`)),
      );
      const result = (await page.evaluate(
        `(${TAG_CARD})(${JSON.stringify([next.deeplink, ROW_TAG])})`,
      )) as
        | { clickedAt: number; frames: number; paintedMs: number; pressed: boolean }
        | { error: string };
      if ('error' in result) throw new Error(`bench/organise: ${result.error}`);
      frames.push(result.frames);
      painted.push(result.paintedMs);
      if (!result.pressed) unpressed += 1;
      await other.waitForFunction(
        () => (window as unknown as { __organise: OrganiseProbe }).__organise.watch?.seenAt != null,
        undefined,
        { timeout: 10_000 },
      );
      seen.push((await probe(other)).watch!.seenAt! - result.clickedAt);
      done += 1;
    }
    const longTasks = (
      await Promise.all(
        [page, other].map(async (p, i) =>
          (await probe(p)).longTasks.filter((t) => t.start >= phaseStart[i]),
        ),
      )
    ).flat();
    // The baseline: a tag set through the API and answered (the next documents of the feed).
    const spare = await db
      .selectFrom('documents')
      .select('id')
      .where('source_id', 'like', 'bench-%')
      .orderBy('id')
      .limit(100)
      .execute();
    const roundTrips: number[] = [];
    for (const { id } of spare) {
      const held = (await api('GET', `/tag/${encodeURIComponent(id)}`)) as {
        user_tags: Array<{ id: string }>;
      };
      const started = performance.now();
      await api('POST', `/tag/${encodeURIComponent(id)}`, {
        tags: held.user_tags.map((t) => t.id),
      });
      roundTrips.push(performance.now() - started);
    }
    const withinFrame = frames.filter((n) => n <= 1).length;
    console.log(
      `  acting tab: ${withinFrame} of ${frames.length} pills in the document by the next frame; click to painted median ${f1(median(painted))} ms, p99 ${f1(quantile(painted, 0.99))} ms, max ${f1(Math.max(...painted))} ms (a frame is ${f1(FRAME_MS)} ms)`,
    );
    console.log(
      `  second tab: click to pill painted median ${f1(median(seen))} ms, p99 ${f1(quantile(seen, 0.99))} ms, max ${f1(Math.max(...seen))} ms`,
    );
    console.log(
      `  long tasks on either tab's main thread meanwhile: ${longTasks.length}${longTasks.length ? ` (longest ${f1(Math.max(...longTasks.map((t) => t.duration)))} ms)` : ''}`,
    );
    console.log(
      `  baseline, a tag set through the API and answered (what a tab waiting for the server pays; median of ${roundTrips.length}): ${f1(median(roundTrips))} ms; ratio baseline / ours ${f1(median(roundTrips) / median(painted))}x`,
    );
    if (unpressed) console.log(`  ${unpressed} options did not read pressed after the click`);
    goal(withinFrame === frames.length, 'every change painted in the acting tab within one frame');
    goal(Math.max(...seen) <= 250, 'every change shown in the second tab within 250 ms');
    goal(longTasks.length === 0, '0 long tasks');
    console.log(`\nload average at the end: ${load()}`);
    await context.close();
  } finally {
    await browser.close();
    await db.destroy();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (missed) {
    console.error('\nbench/organise: a goal was missed');
    process.exitCode = 1;
  }
}

await main();
