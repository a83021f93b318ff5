import { expect, test } from '@playwright/test';
import { LANDING, signIn, signOutAndExpectModalIn } from './helpers';

test('signing out in one tab shows the sign-in-required modal in the other', async ({
  page,
  context,
}) => {
  await signIn(page);
  const other = await context.newPage();
  await other.goto(LANDING);
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();

  const dialog = await signOutAndExpectModalIn(page, other);

  // Escape does not close it; Reload brings the sign-in screen.
  await other.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(other).toHaveURL(/\/auth\/signin$/);
  await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
