import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { searchOf, sharedSignedInPage } from './helpers';

/*
 * The demo workspace's corpus (server/demo/corpus.ts, seed 20250303) as the demo user
 * follows it: every US filing reports its "revenue", as do news stories, Indian results and
 * research notes; "inflation" is in a few news stories only; nothing says "zqxjkvbw".
 */

const results = (page: Page) =>
  page.getByRole('list', { name: 'Search results' }).getByRole('article');
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

// One sign-in for the file: each test opens its own address on the shared page.
let context: BrowserContext;
let page: Page;
test.beforeAll(async ({ browser }) => {
  ({ context, page } = await sharedSignedInPage(browser));
});
test.afterAll(async () => {
  await context?.close();
});

test('a search shows highlighted results, a tab narrows them, a result opens its preview', async () => {
  await page.goto('/search');
  await expect(heading(page, 'Search')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('  revenue ');
  await expect(page).toHaveURL(/\/search\?q=revenue$/);
  await expect(heading(page, 'revenue in My Data')).toBeVisible();
  await expect(page.getByText(/^(About )?[\d,]+ results$/)).toBeVisible();
  const first = results(page).first();
  await expect(first.locator('.card-text em').first()).toHaveText(/^revenue$/i);

  const tabs = page.getByRole('tablist', { name: 'Categories' });
  for (const name of [/^All \d+/, /^News \d+/, /^Indian Exchange \d+/, /^US Exchange \d+/]) {
    await expect(tabs.getByRole('tab', { name })).toBeVisible();
  }
  await tabs.getByRole('tab', { name: /^US Exchange/ }).click();
  await expect(page).toHaveURL(/\/search\/us_capital_markets\?q=revenue$/);
  await expect(tabs.getByRole('tab', { name: /^US Exchange/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const filing = results(page).first();
  await expect(filing.locator('dt', { hasText: 'Company' })).toBeVisible();
  await expect(filing.locator('.card-text em').first()).toHaveText(/^revenue$/i);

  const title = (await filing.getByRole('heading').innerText()).trim();
  await filing.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(/overlay-type=preview/);
  expect(searchOf(page)).toMatchObject({
    q: 'revenue',
    'overlay-category': 'exchanges_groups',
    'overlay-searchTerm': 'revenue',
  });
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { level: 3, name: title })).toBeVisible();
  await expect(panel.locator('.preview-body mark').first()).toHaveText(/^revenue$/i);
});

test('the full page shows the chosen result beside the list with its matches marked', async () => {
  await page.goto('/search/full?q=revenue');
  await expect(heading(page, 'revenue in My Data')).toBeVisible();
  const beside = page.getByRole('region', { name: 'Document' });
  const chosen = results(page).and(page.locator('[aria-current="true"]'));
  const title = (await chosen.getByRole('heading').innerText()).trim();
  await expect(beside.getByRole('heading', { level: 3, name: title })).toBeVisible();
  await expect(beside.locator('.preview-body mark').first()).toHaveText(/^revenue$/i);
});

test('a word nowhere finds nothing, and a misspelling is searched as corrected', async () => {
  await page.goto('/search?q=zqxjkvbw');
  await expect(heading(page, 'zqxjkvbw in My Data')).toBeVisible();
  await expect(page.getByText('No search results found.')).toBeVisible();

  await page.goto('/search?q=inflaton');
  await expect(heading(page, 'inflation in My Data')).toBeVisible();
  await expect(page.locator('.page-subtitle')).toHaveText('Search instead for inflaton');
  await expect(results(page).first().locator('.card-text em').first()).toHaveText(/^inflation$/i);

  await page.getByRole('link', { name: 'inflaton', exact: true }).click();
  await expect(page).toHaveURL(/spell_correct=false/);
  await expect(heading(page, 'inflaton in My Data')).toBeVisible();
  await expect(page.getByText('No search results found.')).toBeVisible();
});
