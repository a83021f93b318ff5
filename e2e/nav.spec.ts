import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('the navigation toggle is remembered across a reload (nav_state)', async ({ page }) => {
  await signIn(page);
  const nav = page.locator('#side-nav');
  await expect(nav).toHaveAttribute('data-state', 'opened');

  await page.getByRole('button', { name: 'Close navigation' }).click();
  // close, then closed 500 ms later (000 §4).
  await expect(nav).toHaveAttribute('data-state', 'closed');

  await page.reload();
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  await expect(nav).toHaveAttribute('data-state', 'closed');

  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(nav).toHaveAttribute('data-state', 'opened');
  await page.reload();
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'opened');
});
