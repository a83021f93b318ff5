import { expect, test } from '@playwright/test';
import { DEMO, LANDING, signIn } from './helpers';

/** Relative luminance of an sRGB colour "rgb(r, g, b)" (WCAG 2 definition). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrastWithWhite = (rgb: string) => 1.05 / (luminance(rgb) + 0.05);

// One sign-in for three checks: what the app loads while signing in, where focus lands, and the
// password screens once signed in.
test('signing in: no Content-Security-Policy violation, focus on the landed heading, no password screens', async ({
  page,
}) => {
  // The three tests' budgets this replaces.
  test.setTimeout(90_000);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await signIn(page);

  await test.step('after sign-in focus is on the heading of the page landed on', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeFocused();
  });

  await test.step('no Content-Security-Policy violation while the app loads and signs in', async () => {
    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
  });

  await test.step('signed in, the password screens go to the landing route like sign-in does', async () => {
    for (const path of [
      '/auth/signin',
      '/auth/forgot-password',
      `/auth/reset-password?token=${'t'.repeat(40)}`,
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
    }
  });
});

test('a focused input shows a ring of at least 3:1 against white', async ({ page }) => {
  await page.goto('/auth/signin');
  await page.keyboard.press('Tab');
  const email = page.getByLabel('E-mail');
  await email.focus();
  await expect(email).toBeFocused();
  const ring = await email.evaluate((el) => {
    const style = getComputedStyle(el);
    return { color: style.outlineColor, width: style.outlineWidth, style: style.outlineStyle };
  });
  expect(ring.style).toBe('solid');
  expect(parseFloat(ring.width)).toBeGreaterThanOrEqual(2);
  expect(contrastWithWhite(ring.color)).toBeGreaterThanOrEqual(3);
});

test('validation messages name fields by their labels', async ({ page }) => {
  await page.goto('/auth/platform-access');
  await page.getByLabel('Name').fill('Ada');
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('E-mail must be a valid e-mail address')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
});

test('a malformed address shows the app error screen', async ({ page }) => {
  await page.goto('/%E0%A4%A');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
  await expect(
    page.getByText('This address is not valid. Check the link, or go back.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go back' })).toBeVisible();
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('the account menu reaches Notifications and Sign out', async ({ page }) => {
    await page.goto('/auth/signin');
    await page.getByLabel('E-mail').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`${LANDING}$`));

    const menu = page.getByRole('button', { name: 'Account menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('link', { name: 'Notifications' })).toBeHidden();
    await menu.click();
    await expect(page.getByRole('link', { name: 'Notifications' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
  });
});
