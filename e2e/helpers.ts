import { expect, type BrowserContext, type Page } from '@playwright/test';
export const DEMO = { email: 'demo@needl.ai', password: 'demo-password' };

/**
 * The landing route (000 §2) of an account with the server's default flags: my_data is on, and
 * the first source family of my data is RSS news.
 */
export const LANDING = '/feeds/home/rss_news';

export async function signIn(page: Page, account = DEMO) {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
}

/** Signs in in `page`, then opens a second tab of the same browser on the landing route. */
export async function signInWithSecondTab(page: Page, context: BrowserContext) {
  await signIn(page);
  const other = await context.newPage();
  await other.goto(LANDING);
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  return other;
}

/** The query of the page's URL as a plain object. */
export const searchOf = (page: Page) =>
  Object.fromEntries(new URL(page.url()).searchParams.entries());

/**
 * Sign out in `page`: it goes to sign-in with no dialog, and `other` shows the
 * sign-in-required modal with its one Reload button. Returns that dialog.
 */
export async function signOutAndExpectModalIn(page: Page, other: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const dialog = other.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You have been logged out');
  await expect(dialog.getByRole('button')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeVisible();
  return dialog;
}
