import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { holdDemoUser, LANDING, searchOf, sharedSignedInPage } from './helpers';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

const cards = (page: Page) =>
  page.getByRole('list', { name: 'Feed documents' }).getByRole('article');

// One sign-in for the file: each test opens its own address on the shared page.
let context: BrowserContext;
let page: Page;
test.beforeAll(async ({ browser }) => {
  ({ context, page } = await sharedSignedInPage(browser));
});
test.afterAll(async () => {
  await context?.close();
});

/** The landing route in the shared page, and a second tab of the same browser on it. */
async function withSecondTab() {
  await page.goto(LANDING);
  await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  const other = await context.newPage();
  await other.goto(LANDING);
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  return other;
}

test('the feed shows cards across its tabs, and a card opens in the preview', async () => {
  await page.goto('/feeds/home');
  const tabs = page.getByRole('tablist', { name: 'Categories' });
  // The demo workspace: news, Indian and US filings, research.
  for (const name of [/^All \d+/, /^News \d+/, /^Indian Exchange \d+/, /^US Exchange \d+/]) {
    await expect(tabs.getByRole('tab', { name })).toBeVisible();
  }
  await expect(cards(page).first()).toBeVisible();

  await tabs.getByRole('tab', { name: /^US Exchange/ }).click();
  await expect(page).toHaveURL(/category_tab=us_capital_markets/);
  const filing = cards(page).first();
  await expect(filing).toBeVisible();
  await expect(filing.locator('dt', { hasText: 'Company' })).toBeVisible();

  await tabs.getByRole('tab', { name: /^News/ }).click();
  const story = cards(page).first();
  const title = (await story.getByRole('heading').innerText()).trim();
  await story.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(/overlay-type=preview/);
  expect(searchOf(page)).toMatchObject({
    'overlay-category': 'rss_news',
    'overlay-board_id': 'home',
  });
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { level: 3, name: title })).toBeVisible();
  await expect(panel.locator('.preview-body p').first()).toBeVisible();
});

test('marking a card read in one tab shows it read in the other', async () => {
  const other = await withSecondTab();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
  const unread = cards(page).and(page.locator('.unread')).first();
  await expect(unread).toBeVisible();
  const title = (await unread.getByRole('heading').innerText()).trim();
  const there = other.getByRole('article', { name: title });
  await expect(there).toHaveClass(/unread/);

  await page
    .getByRole('article', { name: title })
    .getByRole('button', { name: 'Mark as read' })
    .click();
  await expect(page.getByRole('article', { name: title })).not.toHaveClass(/unread/);
  await expect(there).not.toHaveClass(/unread/);
  await expect(there.getByRole('button', { name: 'Mark as unread' })).toBeVisible();

  // And back, from the other tab.
  await there.getByRole('button', { name: 'Mark as unread' }).click();
  await expect(page.getByRole('article', { name: title })).toHaveClass(/unread/);
  await other.close();
});

/** A local feed publisher: one RSS document with three items, published just now. */
async function startFixtureFeed(stamp: string): Promise<{ server: Server; url: string }> {
  const now = new Date().toUTCString();
  const items = ['one', 'two', 'three']
    .map(
      (n) => `<item>
        <title>Fixture ${n} ${stamp}</title>
        <link>http://example.com/fixture/${n}/${stamp}</link>
        <guid>fixture-${n}-${stamp}</guid>
        <pubDate>${now}</pubDate>
        <description><![CDATA[<p>Fixture item ${n}, served by the spec.</p>]]></description>
      </item>`,
    )
    .join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0"><channel><title>Fixture Wire</title><link>http://example.com/</link>
    <description>Fixture feed</description>${items}</channel></rss>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
    res.end(xml);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/feed.xml` };
}

test('following a fixture RSS feed: its cards arrive without a reload, and its status shows', async () => {
  // Sign-in, a first fetch within 5 s, and the status list's 15 s freshness (002 §7).
  test.setTimeout(90_000);
  const stamp = String(Date.now());
  const { server, url } = await startFixtureFeed(stamp);
  try {
    const feed = await withSecondTab();
    await expect(feed).toHaveURL(new RegExp(`${LANDING}$`));
    await expect(cards(feed).first()).toBeVisible();

    await page.goto('/connect/rss');
    await page.getByLabel('Feed or website address').fill(url);
    await page.getByLabel('Name (optional)').fill(`Fixture ${stamp}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page.getByText(`Fixture ${stamp} is successfully followed`)).toBeVisible();

    // The feed tab was open before the follow and is never reloaded: the items arrive in it.
    for (const n of ['one', 'two', 'three']) {
      await expect(feed.getByRole('article', { name: `Fixture ${n} ${stamp}` })).toBeVisible({
        timeout: 20_000,
      });
    }

    await page.goto('/settings/feeds');
    const row = page.getByRole('row', { name: new RegExp(`Fixture ${stamp}`) });
    // The list is re-read while the screen is open: the first read's outcome shows up in it.
    await expect(row).toContainText('3 documents', { timeout: 40_000 });
    await expect(row).toContainText('RSS feed');
    await expect(row.getByRole('cell').last()).toHaveText('None');
    await feed.close();
  } finally {
    server.close();
  }
});

test("a malformed address is refused in the server's words", async () => {
  await page.goto('/connect/rss');
  await page.getByLabel('Feed or website address').fill('ftp://example.com/feed');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible();
  await expect(alert).not.toHaveText('Something went wrong. Please try again');
  await expect(alert).toContainText(/url/i);
});
