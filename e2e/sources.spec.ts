import { expect, test } from '@playwright/test';
import { holdDemoUser, signIn } from './helpers';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

test('the catalogue: follow a source, give it priority, unfollow it from its page', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/connect/website');
  const groups = page.getByRole('heading', { level: 2 });
  await expect(groups.first()).toHaveText('Indian Capital Markets');
  await expect(groups.nth(1)).toHaveText('US Capital Markets');

  await page.getByRole('button', { name: 'Follow SEBI', exact: true }).click();
  await expect(page.getByText('SEBI is successfully followed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfollow SEBI' })).toBeVisible();

  await page.getByRole('link', { name: 'Followed', exact: true }).click();
  await expect(page).toHaveURL(/\/connect\/website\/followed$/);
  await page.getByRole('checkbox', { name: 'Select SEBI' }).check();
  await page.getByRole('button', { name: 'Mark as priority' }).click();
  await expect(page.getByText('Priority updated successfully.')).toBeVisible();
  const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'SEBI' }) });
  await expect(row.getByText('Priority', { exact: true })).toBeVisible();

  // Unfollowing from the source's own page goes on to the next source followed.
  await row.getByRole('link', { name: 'SEBI' }).click();
  await expect(page).toHaveURL(/\/apps\/sebi$/);
  await expect(page.getByRole('heading', { level: 1, name: 'SEBI' })).toBeVisible();
  await page.getByRole('button', { name: 'Unfollow' }).click();
  await expect(page.getByText('SEBI is successfully unfollowed')).toBeVisible();
  await expect(page).toHaveURL(/\/apps\/(?!sebi$)[^/]+$/);
});
