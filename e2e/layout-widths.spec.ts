import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

/*
 * The main screens at the three widths of issue 18 (1440 desktop, 900 tablet, 390 phone): what
 * each width must do (drawer, assistant reachable, cards sized to content, lists to the bottom),
 * and a screenshot of each, compared with a tolerance so a layout regression fails. Times,
 * counts and the sync pill change from run to run: they are masked.
 */

const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'tablet', width: 900, height: 1000 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const masks = (page: Page): Locator[] => [
  page.locator('time'),
  page.locator('.feed-tab-count'),
  page.locator('.status-pill'),
  page.locator('.search-count'),
  // The question box types its placeholder out letter by letter.
  page.locator('.composer textarea'),
];

const shot = (page: Page, name: string) =>
  expect(page).toHaveScreenshot(`${name}.png`, {
    mask: masks(page),
    animations: 'disabled',
    caret: 'hide',
    maxDiffPixelRatio: 0.03,
  });

const feedCards = (page: Page) =>
  page.getByRole('list', { name: 'Feed documents' }).getByRole('article');

/** Opens the navigation where it starts closed (tablet and phone). */
async function openNav(page: Page) {
  const open = page.getByRole('button', { name: 'Open navigation' });
  if (await open.isVisible()) await open.click();
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'opened');
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    // Several screens per test, each signed in afresh.
    test.describe.configure({ timeout: 90_000 });

    test('the feed: cards sized to their content, the list reaching the bottom', async ({
      page,
    }) => {
      await signIn(page);
      await expect(feedCards(page).first()).toBeVisible();
      await expect(page.locator('.feed-list')).not.toHaveAttribute('aria-busy', 'true');

      // No card holds empty space under its last line (a fixed height did: issue 18).
      const gaps = await feedCards(page).evaluateAll((cards) =>
        cards.slice(0, 4).map((card) => {
          const body = card.querySelector('.card-body');
          const bottom = body ? body.getBoundingClientRect().bottom : 0;
          return Math.round(card.getBoundingClientRect().bottom - bottom);
        }),
      );
      for (const gap of gaps) expect(gap).toBeLessThanOrEqual(24);

      // The list ends at the window's bottom.
      const listBottom = await page
        .getByRole('list', { name: 'Feed documents' })
        .evaluate((el) => Math.round(el.getBoundingClientRect().bottom));
      expect(Math.abs(listBottom - size.height)).toBeLessThanOrEqual(2);

      await expect(page.getByRole('main').getByRole('link', { name: 'Add source' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'New feed' })).toBeVisible();
      await shot(page, `feed-${size.name}`);
    });

    // That every entry leads somewhere is walked, link by link, by first-hour.spec.ts.
    test('the navigation: a drawer on a phone', async ({ page }) => {
      await signIn(page);
      const mainWidth = await page.getByRole('main').evaluate((el) => el.clientWidth);
      await openNav(page);
      if (size.width < 768) {
        // Over the page with a scrim: the page keeps its width.
        await expect(page.getByTestId('nav-scrim')).toBeVisible();
        expect(await page.getByRole('main').evaluate((el) => el.clientWidth)).toBe(mainWidth);
      }
      await shot(page, `nav-${size.name}`);
    });

    test('the assistant is reachable, and its page fits', async ({ page }) => {
      await signIn(page);
      if (size.width >= 768) {
        await page.getByRole('button', { name: 'Open AskNeedl' }).click();
      } else {
        await openNav(page);
        await page
          .getByRole('navigation', { name: 'Main navigation' })
          .getByRole('link', { name: 'AskNeedl' })
          .click();
      }
      const question = page.getByLabel('Your question');
      await expect(question).toBeVisible();
      await expect(question).toBeInViewport();
      await expect(page.locator('.disclaimer')).toBeInViewport();
      if (size.width > 1024) {
        // Beside the page, at 35%: the header and composer fit.
        const panel = page.getByTestId('overlay');
        await expect(panel).toBeVisible();
        const overflow = await panel
          .locator('.chat-view')
          .evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } else {
        await expect(page).toHaveURL(/\/ask-needl$/);
        // The page itself does not scroll: the conversation does.
        const pageScroll = await page.evaluate(
          () => document.documentElement.scrollHeight - window.innerHeight,
        );
        expect(pageScroll).toBeLessThanOrEqual(1);
      }
      await shot(page, `assistant-${size.name}`);
    });

    test('search and adding a source', async ({ page }) => {
      await signIn(page);
      await page.goto('/search?q=revenue');
      await expect(
        page.getByRole('list', { name: 'Search results' }).getByRole('article').first(),
      ).toBeVisible();
      await shot(page, `search-${size.name}`);

      await page.goto('/connect/rss');
      await expect(page.getByRole('heading', { name: 'Feeds you follow' })).toBeVisible();
      await shot(page, `connect-rss-${size.name}`);
    });
  });
}
