import { expect, test } from '@playwright/test';
import { LANDING, signIn, signInWithSecondTab, signOutAndExpectModalIn } from './helpers';

test('signing out in one tab shows the sign-in-required modal in the other', async ({
  page,
  context,
}) => {
  const other = await signInWithSecondTab(page, context);

  const dialog = await signOutAndExpectModalIn(page, other);

  // A modal: Tab stays inside it (the page behind is inert), and Escape, even pressed
  // repeatedly, does not close it. Reload brings the sign-in screen.
  const reload = dialog.getByRole('button', { name: 'Reload' });
  await expect(reload).toBeFocused();
  // (Past the dialog's last control focus may leave for the browser itself, never the page.)
  const focusReachesPage = () =>
    other.evaluate(() => {
      const active = document.activeElement;
      return !!active && active !== document.body && !active.closest('dialog');
    });
  for (let i = 0; i < 4; i += 1) {
    await other.keyboard.press('Tab');
    expect(await focusReachesPage()).toBe(false);
  }
  await other.keyboard.press('Shift+Tab');
  expect(await focusReachesPage()).toBe(false);
  // A click outside the dialog (its backdrop) drops focus; the next Tab still stays out of the page.
  await other.mouse.click(5, 5);
  await other.keyboard.press('Tab');
  expect(await focusReachesPage()).toBe(false);
  await expect(dialog).toBeVisible();
  await other.keyboard.press('Escape');
  await other.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(other).not.toHaveURL(/\/auth\/signin$/);
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(other).toHaveURL(/\/auth\/signin$/);
  await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('signing in again in one tab closes the sign-in-required modal in the other', async ({
  page,
  context,
}) => {
  const other = await signInWithSecondTab(page, context);

  const dialog = await signOutAndExpectModalIn(page, other);

  await signIn(page);

  // The session is back: the other tab drops its modal and stays where it was, usable again.
  await expect(dialog).toBeHidden();
  await expect(other).toHaveURL(new RegExp(`${LANDING}$`));
  await other.getByRole('link', { name: 'Notifications' }).click();
  await expect(other.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
});
