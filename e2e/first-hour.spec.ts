import {
  expect,
  request as apiRequest,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  apiToken,
  E2E_PORT,
  holdDemoUser,
  serverReadState,
  signInAt,
  waitForAppShell,
} from './helpers';
import { startOutageProxy } from './outage-proxy';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

/*
 * Issue 18, "Acceptance": a newcomer's first hour, at each of the three widths. Signed in as the
 * demo user once (through the outage proxy, so the server can later be taken away), the same
 * tab is resized for each width and walks the journey: add an RSS feed from the navigation,
 * read three of its items with the keyboard, mark the feed all read and undo, open the
 * assistant from the navigation, ask, follow a citation to its sentence, lose the server,
 * reload, read and mark an item read offline, and see that write land within 1 s of the
 * server's return. Then the visible navigation and header links of every width are visited:
 * none leads to "Not available yet".
 */

const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'tablet', width: 900, height: 1000 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** In the demo corpus's news (RBI policy stories, server/demo/corpus-text.ts). */
const QUESTION = 'What did the RBI decide about the repo rate?';
const OFFLINE = 'Offline: the server cannot be reached.';
/** The items of each fixture feed, newest first. */
const ITEMS = ['one', 'two', 'three', 'four', 'five'];
const STAMP = String(Date.now());

const itemTitle = (feed: string, n: string) => `${feed} ${n} ${STAMP}`;

/** One RSS document per path: /{feed}.xml lists ITEMS, a minute apart, the first newest. */
function rss(feed: string): string {
  const now = Date.now();
  const items = ITEMS.map(
    (n, i) => `<item>
        <title>${itemTitle(feed, n)}</title>
        <link>http://example.com/first-hour/${feed}/${n}/${STAMP}</link>
        <guid>first-hour-${feed}-${n}-${STAMP}</guid>
        <pubDate>${new Date(now - i * 60_000).toUTCString()}</pubDate>
        <description><![CDATA[<p>Item ${n} of the ${feed} wire, served by the journey.</p>]]></description>
      </item>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0"><channel><title>${feed} wire</title><link>http://example.com/</link>
    <description>Fixture feed</description>${items}</channel></rss>`;
}

let publisher: Server;
let publisherOrigin: string;
let proxy: Awaited<ReturnType<typeof startOutageProxy>>;
let api: APIRequestContext;
let token: string;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(60_000);
  publisher = createServer((req, res) => {
    const feed = /^\/(\w+)\.xml$/.exec(req.url ?? '')?.[1];
    if (!feed) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(rss(feed));
  });
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  publisherOrigin = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;
  proxy = await startOutageProxy({ host: '127.0.0.1', port: E2E_PORT });
  api = await apiRequest.newContext();
  token = await apiToken(api);

  // One sign-in for the file: the tab is resized for each width. The tests do not depend on
  // one another (a failure starts a new worker, which signs in again for the rest).
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await signInAt(page, proxy.origin);
  await waitForAppShell(page);
});

test.afterAll(async () => {
  await context?.close();
  await api?.dispose();
  await proxy?.close();
  publisher?.closeAllConnections();
  await new Promise((resolve) => publisher?.close(resolve));
});

const cardsOf = (p: Page) => p.getByRole('list', { name: 'Feed documents' }).getByRole('article');
const card = (p: Page, title: string) => cardsOf(p).and(p.getByRole('article', { name: title }));
/** The title of the document in the preview (the overlay or the full-screen page). */
const shownTitle = (p: Page) => p.locator('.preview-title');
const mainNav = (p: Page) => p.getByRole('navigation', { name: 'Main navigation' });

/** Opens the navigation where it starts closed (tablet and phone); a no-op where it is open. */
async function openNav(p: Page) {
  const nav = p.locator('#side-nav');
  const open = p.getByRole('button', { name: 'Open navigation' });
  if (await open.isVisible()) await open.click();
  // Opening ('open') or opened: its links can be clicked once they stand still.
  await expect(nav).toHaveAttribute('data-state', /^open/);
}

/** Follows a navigation entry as a user would: the navigation opened first where it is closed. */
async function viaNav(p: Page, name: string) {
  await openNav(p);
  await mainNav(p).getByRole('link', { name, exact: true }).click();
}

/** Whether the card shows its document unread. */
const isUnread = (c: Locator) => c.evaluate((el) => el.classList.contains('unread'));

for (const size of WIDTHS) {
  test(`the first hour at ${size.width} px`, async () => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const feed = `${size.name}`;
    const label = `First hour ${size.name} ${STAMP}`;
    const titles = ITEMS.map((n) => itemTitle(feed, n));

    await test.step('add an RSS feed from the navigation', async () => {
      await viaNav(page, 'Add source');
      await expect(page).toHaveURL(/\/connect\/rss$/);
      await page.getByLabel('Feed or website address').fill(`${publisherOrigin}/${feed}.xml`);
      await page.getByLabel('Name (optional)').fill(label);
      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `Following ${label}.` }),
      ).toBeVisible();
      await page.getByRole('link', { name: 'See its documents' }).click();
      await expect(page).toHaveURL(/\/apps\/[^/?]+$/);
      // The first read arrives within seconds, without a reload.
      for (const title of titles) {
        await expect(card(page, title)).toBeVisible({ timeout: 20_000 });
        await expect(card(page, title)).toHaveClass(/unread/);
      }
    });
    const feedPath = new URL(page.url()).pathname;

    await test.step('read three items with the keyboard', async () => {
      // j selects the first card, o opens it (opening marks read), j steps to the next two.
      await page.keyboard.press('j');
      await expect(card(page, titles[0])).toHaveAttribute('data-selected', 'true');
      await page.keyboard.press('o');
      await expect(shownTitle(page)).toHaveText(titles[0]);
      await page.keyboard.press('j');
      await expect(shownTitle(page)).toHaveText(titles[1]);
      await page.keyboard.press('j');
      await expect(shownTitle(page)).toHaveText(titles[2]);
      // Escape leaves the preview for the list, the third card still selected.
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(new RegExp(`${feedPath}$`));
      await expect(card(page, titles[2])).toHaveAttribute('data-selected', 'true');
      for (const title of titles.slice(0, 3)) {
        await expect(card(page, title)).not.toHaveClass(/unread/);
      }
      for (const title of titles.slice(3)) await expect(card(page, title)).toHaveClass(/unread/);
    });

    await test.step('mark the feed all read, then undo', async () => {
      await page.getByRole('button', { name: 'Mark all read' }).click();
      const done = page.getByRole('status').filter({ hasText: 'Marked 2 documents read.' });
      await expect(done).toBeVisible();
      for (const title of titles) await expect(card(page, title)).not.toHaveClass(/unread/);
      await done.getByRole('button', { name: 'Undo' }).click();
      for (const title of titles.slice(3)) await expect(card(page, title)).toHaveClass(/unread/);
      for (const title of titles.slice(0, 3)) {
        await expect(card(page, title)).not.toHaveClass(/unread/);
      }
    });

    await test.step('open the assistant from the navigation, ask, follow a citation', async () => {
      await viaNav(page, 'AskNeedl');
      const composer = page.getByRole('textbox', { name: 'Your question' });
      await expect(composer).toBeVisible();
      // A new chat: the journey at the previous width left a session behind.
      const newChat = page.getByRole('button', { name: 'New chat' }).first();
      if (await newChat.isVisible()) await newChat.click();
      await composer.fill(QUESTION);
      await composer.press('Enter');
      const answer = page.getByRole('article', { name: 'Answer' }).last();
      await expect(answer.locator('.answer-markdown')).toContainText('policy rate');
      const first = answer.getByRole('region', { name: 'Sources' }).getByRole('listitem').first();
      await expect(first).toBeVisible();
      const bare = (texts: string[]) => texts.join('').replace(/\s+/g, '');
      const quoted = bare(await first.locator('mark').allInnerTexts());
      expect(quoted.length).toBeGreaterThan(10);

      const marker = answer.getByRole('link', { name: /^Source 1: / });
      const title = (await marker.getAttribute('title')) ?? '';
      await marker.click();
      await expect(page).toHaveURL(/highlight=\d+-\d+/);
      await expect(shownTitle(page)).toHaveText(title);
      const marks = page.locator('.preview-body mark');
      // Exactly the cited sentence is marked, and the preview is scrolled to it.
      await expect(marks.first()).toBeInViewport();
      expect(bare(await marks.allInnerTexts())).toBe(quoted);
    });

    await test.step('offline: reload, read the feed with the banner, mark an item read', async () => {
      await page.goto(`${proxy.origin}${feedPath}`);
      const fourth = card(page, titles[3]);
      await expect(fourth).toHaveClass(/unread/);
      const deeplink = (await fourth.getAttribute('data-deeplink')) ?? '';
      expect(await serverReadState(api, token, deeplink)).toBe('unread');

      proxy.cut();
      await page.reload();
      await expect(page.getByText(OFFLINE)).toBeVisible();
      for (const title of titles) await expect(card(page, title)).toBeVisible();
      await expect(fourth).toHaveClass(/unread/);
      await fourth.getByRole('button', { name: 'Mark as read' }).click();
      await expect(fourth).not.toHaveClass(/unread/);
      expect(await serverReadState(api, token, deeplink)).toBe('unread');

      // The server returns: the worker's probe finds it and the queued write lands.
      proxy.restore();
      const back = Date.now();
      await expect
        .poll(() => serverReadState(api, token, deeplink), { timeout: 3_000, intervals: [50] })
        .toBe('read');
      const landedMs = Date.now() - back;
      test.info().annotations.push({ type: 'write landed after', description: `${landedMs} ms` });
      console.log(`${size.width} px: the offline write landed ${landedMs} ms after the return`);
      // Issue 18: "see the write land within 1 s".
      expect(landedMs).toBeLessThanOrEqual(1_000);
      await expect(page.getByText(OFFLINE)).toBeHidden();
      expect(await isUnread(fourth)).toBe(false);
    });
  });
}

/** Every link of the navigation and of the header (the account menu's, on a phone), shown. */
async function visibleLinks(p: Page) {
  await openNav(p);
  const nav = await mainNav(p)
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const menu = p.getByRole('button', { name: 'Account menu' });
  const opened = await menu.isVisible();
  if (opened) await menu.click();
  const header = await p
    .locator('header.top-bar a:visible')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  if (opened) await menu.click();
  return { nav, header };
}

/*
 * The links shown are gathered at each width (the phone's first, the desktop's last), then each
 * address is visited once, by one click on its link where the desktop shows it (else by one
 * page load): whether an address is a placeholder is decided by its route (the router's
 * placeholder patterns, src/layout/built-routes.ts), not by the width its link was shown at,
 * and the links are plain router links to their href.
 */
test('no visible navigation or header link, at any width, leads to "Not available yet"', async () => {
  // The three widths' budget of the walk this replaces (90 s each): a busy machine is slow.
  test.setTimeout(270_000);
  const widthsOf = new Map<string, number[]>();
  await page.goto(`${proxy.origin}/`);
  for (const size of [...WIDTHS].reverse()) {
    await test.step(`the links shown at ${size.width} px`, async () => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await expect(page.locator('main#main-content')).toBeVisible();
      const links = await visibleLinks(page);
      expect(links.nav.length).toBeGreaterThan(5);
      expect(links.header.length).toBeGreaterThan(1);
      for (const href of [...links.nav, ...links.header]) {
        widthsOf.set(href, [...new Set([...(widthsOf.get(href) ?? []), size.width])]);
      }
    });
  }

  // At 1440 px the navigation stays open and the header shows its links.
  const placeholder = page.getByText('Not available yet');
  for (const [href, widths] of widthsOf) {
    await test.step(`${href} (shown at ${widths.join(', ')} px)`, async () => {
      // A full-page screen without the navigation (the feed builder): back to where it was.
      if ((await page.locator('#side-nav').count()) === 0) await page.goBack();
      const link = page
        .locator(`#side-nav a[href="${href}"], header.top-bar a[href="${href}"]`)
        .filter({ visible: true })
        .first();
      if (await link.isVisible()) await link.click();
      else await page.goto(new URL(href, proxy.origin).href);
      const path = new URL(href, proxy.origin).pathname;
      // The brand's / goes on to the landing route.
      if (path !== '/') await expect(page).toHaveURL((url) => url.pathname.startsWith(path));
      // The screen has drawn (a heading of its own), and it is not the placeholder (whose own
      // heading is "Not available yet").
      await expect(page.locator('main#main-content').getByRole('heading').first()).toBeVisible();
      await expect(placeholder).toHaveCount(0);
    });
  }
});
