import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { LANDING } from './helpers';

/**
 * Issue 6, "Done when": a new user follows a fixture RSS feed and a filings preset, sees their
 * cards arrive, builds a custom feed with a boolean keyword query, marks a card read in one tab
 * and sees it read in another; a second user sees none of the first user's private sources.
 *
 * The fixture publisher runs on E2E_FIXTURE_PORT (playwright.config.ts), where the server's
 * PRESET_BASE_URL points: the SEC preset reads the recorded EDGAR answer at /sec from it.
 */

const FIXTURE_PORT = Number(process.env.E2E_FIXTURE_PORT);
const SEC_ATOM = readFileSync(
  fileURLToPath(new URL('../tests/fixtures/filings/sec-getcurrent.atom', import.meta.url)),
);
const QUERY = '("quantum" OR foundry) AND NOT lawsuit';
const MATCHING = ['Quantum chip foundry opens in Leeds', 'Foundry output doubles at quantum fab'];
const EXCLUDED = 'Quantum chip foundry named in patent lawsuit';
const UNRELATED = 'Harbour ferry timetable changes for winter';
const WIRE = 'Quantum Wire';

/** One RSS document: the four items above, published in the last minutes. */
function rssFeed(): string {
  const now = Date.now();
  const items = [...MATCHING, EXCLUDED, UNRELATED]
    .map(
      (title, i) => `<item>
        <title>${title}</title>
        <link>http://example.com/quantum/${i}</link>
        <guid>quantum-wire-${i}</guid>
        <pubDate>${new Date(now - i * 60_000).toUTCString()}</pubDate>
        <description><![CDATA[<p>${title}: reported by the acceptance fixture.</p>]]></description>
      </item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0"><channel><title>${WIRE}</title><link>http://example.com/</link>
    <description>Fixture feed</description>${items}</channel></rss>`;
}

let publisher: Server;

test.beforeAll(async () => {
  const rss = rssFeed();
  publisher = createServer((req, res) => {
    if (req.url === '/quantum.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(rss);
    } else if (req.url === '/sec') {
      res.writeHead(200, { 'content-type': 'application/atom+xml; charset=ISO-8859-1' });
      res.end(SEC_ATOM);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    publisher.once('error', (err) =>
      reject(new Error(`the fixture publisher cannot listen on E2E_FIXTURE_PORT: ${err.message}`)),
    );
    publisher.listen(FIXTURE_PORT, '127.0.0.1', resolve);
  });
});

test.afterAll(async () => {
  publisher.closeAllConnections();
  await new Promise((resolve) => publisher.close(resolve));
});

const cards = (page: Page) =>
  page.getByRole('list', { name: 'Feed documents' }).getByRole('article');

async function signUp(page: Page, name: string) {
  await page.goto('/auth/platform-access');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail').fill(`acceptance-${Date.now()}-${name.length}@example.com`);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
}

test('a new user follows a feed and a filings preset, builds a feed, reads across tabs; another user sees none of it', async ({
  page,
  context,
  browser,
}) => {
  // Two sign-ups, two first fetches (within 5 s each) and the live signal, the builder's preview.
  test.setTimeout(180_000);
  await signUp(page, 'Ada Acceptance');

  // A second tab on the home feed, open before anything is followed and never reloaded.
  const home = await context.newPage();
  await home.goto('/feeds/home');

  await test.step('follow the fixture RSS feed by its address', async () => {
    await page.goto('/connect/rss');
    await page
      .getByLabel('Feed or website address')
      .fill(`http://127.0.0.1:${FIXTURE_PORT}/quantum.xml`);
    await page.getByLabel('Name (optional)').fill(WIRE);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page.getByText(`${WIRE} is successfully followed`)).toBeVisible();
  });

  await test.step('follow the SEC preset from the catalogue', async () => {
    await page.goto('/connect/website');
    await page.getByRole('button', { name: 'Follow SEC', exact: true }).click();
    await expect(page.getByText('SEC is successfully followed')).toBeVisible();
  });

  await test.step('both sources’ cards arrive in the open home tab without a reload', async () => {
    for (const title of [...MATCHING, EXCLUDED]) {
      await expect(home.getByRole('article', { name: title })).toBeVisible({ timeout: 30_000 });
    }
    const tabs = home.getByRole('tablist', { name: 'Categories' });
    await expect(tabs.getByRole('tab', { name: /^US Exchange/ })).toBeVisible({ timeout: 30_000 });
    await tabs.getByRole('tab', { name: /^US Exchange/ }).click();
    const filing = home.getByRole('article', { name: '8-K - MICROSOFT CORP: Current report' });
    await expect(filing).toBeVisible();
    await expect(filing.locator('.card-fields > div', { hasText: 'Company' })).toContainText(
      'MICROSOFT CORP',
    );
    await tabs.getByRole('tab', { name: /^All/ }).click();
    await expect(home.getByRole('article', { name: MATCHING[0] })).toBeVisible();
  });

  let wirePage = '';
  await test.step('the sources list shows both read, with their documents', async () => {
    await page.goto('/settings/feeds');
    const wire = page.getByRole('row', { name: new RegExp(WIRE) });
    await expect(wire).toContainText('4 documents', { timeout: 20_000 });
    await expect(wire).toContainText('RSS feed');
    const sec = page.getByRole('row', { name: /^SEC/ });
    await expect(sec).toContainText('4 documents', { timeout: 20_000 });
    await expect(sec).toContainText('Filings');
    wirePage = (await wire.getByRole('link', { name: WIRE }).getAttribute('href')) ?? '';
    expect(wirePage).toMatch(/^\/apps\/.+/);
  });

  let feedUrl = '';
  await test.step('build a custom feed with a boolean keyword query', async () => {
    await page.goto('/settings/feeds/root');
    await page.getByRole('button', { name: 'Create feed' }).click();
    const panel = page.getByTestId('overlay');
    await panel.getByRole('button', { name: /^Custom feed/ }).click();
    await panel.getByLabel('Feed name').fill('Quantum watch');
    await panel.getByPlaceholder('Add a keyword').fill(QUERY);
    await expect(panel.getByText(/^Invalid keyword/)).toHaveCount(0);
    await panel.getByPlaceholder('Add a keyword').press('Enter');
    await expect(panel.getByRole('list', { name: 'Keywords' }).getByText(QUERY)).toBeVisible();
    await expect(page.getByTestId('preview-count')).toHaveText('2 matching documents');
    await panel.getByRole('button', { name: 'Create feed' }).click();

    await expect(page).toHaveURL(/\/feeds\/(?!home)[^/?]+$/);
    feedUrl = new URL(page.url()).pathname;
    for (const title of MATCHING) {
      await expect(page.getByRole('article', { name: title })).toBeVisible();
    }
    await expect(cards(page)).toHaveCount(2);
  });

  await test.step('a card marked read in one tab shows read in the other', async () => {
    const there = home.getByRole('article', { name: MATCHING[0] });
    await expect(there).toHaveClass(/unread/);
    await page
      .getByRole('article', { name: MATCHING[0] })
      .getByRole('button', { name: 'Mark as read' })
      .click();
    await expect(page.getByRole('article', { name: MATCHING[0] })).not.toHaveClass(/unread/);
    await expect(there).not.toHaveClass(/unread/);
    await expect(there.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
    await expect(home.getByRole('article', { name: MATCHING[1] })).toHaveClass(/unread/);
  });

  await test.step('a second user sees none of the first user’s sources or feeds', async () => {
    const second = await browser.newContext();
    const other = await second.newPage();
    await signUp(other, 'Bea Second');

    await other.goto('/settings/feeds');
    await expect(other.getByText('You follow no sources yet.')).toBeVisible();
    await expect(other.getByText(WIRE)).toHaveCount(0);

    await other.goto('/feeds/home');
    await expect(other.getByRole('heading', { name: 'No documents yet' })).toBeVisible();
    await expect(other.getByRole('article')).toHaveCount(0);
    await expect(other.getByText(/Quantum chip foundry/)).toHaveCount(0);

    // The first user's feed and private source are not theirs to open.
    await other.goto(feedUrl);
    await expect(other.getByRole('heading', { name: 'Feed not found' })).toBeVisible();
    await expect(other.getByRole('article')).toHaveCount(0);
    await other.goto(wirePage);
    // Its page names it by its key only (no label, no address) and lists nothing.
    await expect(other.getByText(/^You do not follow /)).toBeVisible();
    await expect(other.getByText(WIRE)).toHaveCount(0);
    await expect(other.getByText(/quantum\.xml/)).toHaveCount(0);
    await expect(other.getByRole('article')).toHaveCount(0);
    await second.close();
  });
});
