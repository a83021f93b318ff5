import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { holdDemoUser, searchOf, sharedSignedInPage } from './helpers';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

const QUERY = '("chip" OR semiconductor) AND NOT lawsuit';

// One sign-in for the file: each test opens its own address on the shared page.
let context: BrowserContext;
let page: Page;
test.beforeAll(async ({ browser }) => {
  ({ context, page } = await sharedSignedInPage(browser));
});
test.afterAll(async () => {
  await context?.close();
});

/** The first card of the builder's live preview, once the preview has found some. */
async function firstPreviewTitle(page: Page): Promise<string> {
  // The preview answers the query as it stands once it is no longer busy.
  await expect(page.getByRole('region', { name: 'Preview' })).not.toHaveAttribute('aria-busy');
  await expect(page.getByTestId('preview-count')).toHaveText(/^[1-9][\d.k]* matching documents?$/);
  const first = page.getByRole('list', { name: 'Matching documents' }).locator('.fb-preview-title');
  await expect(first.first()).toBeVisible();
  return (await first.first().textContent()) ?? '';
}

/** After saving: the feed's own page, showing the document the preview showed first. */
async function expectFeedWith(page: Page, title: string) {
  await expect(page).toHaveURL(/\/feeds\/[^/?]+$/);
  expect(page.url()).not.toMatch(/\/feeds\/home/);
  await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
}

test('a custom feed from a boolean keyword query: validated, previewed, saved, shown', async () => {
  // Build, save, then disable, enable, duplicate and edit it: eleven screens' worth.
  test.setTimeout(60_000);
  await page.goto('/settings/feeds/root');
  await page.getByRole('button', { name: 'Create feed' }).click();
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { name: 'Custom Feed' })).toBeVisible();
  await panel.getByRole('button', { name: /^Custom feed/ }).click();
  expect(searchOf(page)).toMatchObject({
    'overlay-type': 'custom-feed',
    'overlay-page': 'create-feed',
  });

  await panel.getByLabel('Feed name').fill('Chip watch');
  const keyword = panel.getByPlaceholder('Add a keyword');
  await keyword.fill('(chip');
  await expect(panel.getByText('Invalid keyword. Paranthesis are imbalanced.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Add keyword' })).toBeDisabled();
  await keyword.fill('chip OR');
  await expect(panel.getByText('Invalid keyword. Unused Boolean Operators at ends.')).toBeVisible();

  await keyword.fill(QUERY);
  await expect(panel.getByText(/^Invalid keyword/)).toHaveCount(0);
  await keyword.press('Enter');
  await expect(panel.getByRole('list', { name: 'Keywords' }).getByText(QUERY)).toBeVisible();

  const title = await firstPreviewTitle(page);
  await panel.getByRole('button', { name: 'Create feed' }).click();
  await expectFeedWith(page, title);
  await expect(page.getByTestId('overlay')).toHaveCount(0);

  // The feed manager lists it; it can be disabled, enabled again and duplicated.
  await page.goto('/settings/feeds/root');
  const feeds = page.getByRole('list', { name: 'Your feeds' });
  await expect(feeds.getByRole('link', { name: 'Chip watch' })).toBeVisible();
  await page.getByRole('button', { name: 'Disable Chip watch' }).click();
  await expect(page.getByRole('button', { name: 'Enable Chip watch' })).toBeVisible();
  await page.getByRole('button', { name: 'Enable Chip watch' }).click();
  await expect(page.getByRole('button', { name: 'Disable Chip watch' })).toBeVisible();
  const before = await feeds.getByRole('listitem').count();
  await page.getByRole('button', { name: 'Duplicate Chip watch' }).click();
  await expect(feeds.getByRole('listitem')).toHaveCount(before + 1);

  // Edit opens the builder on the saved feed.
  await page.getByRole('button', { name: 'Edit Chip watch', exact: true }).click();
  await expect(page.getByTestId('overlay').getByLabel('Feed name')).toHaveValue('Chip watch');
  await expect(
    page.getByTestId('overlay').getByRole('list', { name: 'Keywords' }).getByText(QUERY),
  ).toBeVisible();
});

test('an AI feed from picked companies, topics and attributes', async () => {
  await page.goto('/custom-feed?type=custom-feed&page=select-ai-feed-type');
  await page.getByRole('button', { name: /^From companies, topics and attributes/ }).click();
  await expect(page).toHaveURL(/page=create-ai-feed/);

  const companies = page.getByRole('list', { name: 'Companies' }).getByRole('button');
  await expect(companies.first()).toBeVisible();
  await companies.first().click();
  await expect(companies.first()).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Propose a feed' }).click();

  await expect(page).toHaveURL(/page=review-feed-suggestion&suggestion-ids=/);
  await expect(page.getByLabel('Feed name')).not.toHaveValue('');
  await expect(page.getByText(/documents? match(es)? now/)).toBeVisible();
  const title = await firstPreviewTitle(page);
  await page.getByRole('button', { name: 'Create feed' }).click();
  await expectFeedWith(page, title);
});
