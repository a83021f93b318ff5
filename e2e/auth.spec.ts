import { expect, test } from '@playwright/test';
import { LANDING, signIn } from './helpers';

test('a new user signs up on /auth/platform-access and lands on the landing route', async ({
  page,
}) => {
  const email = `e2e-${Date.now()}@example.com`;
  await page.goto('/auth/platform-access');
  await page.getByLabel('Name').fill('Ada Analyst');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByText('Ada Analyst')).toBeVisible();
});

test('signing up twice with one e-mail shows the server error under the form', async ({ page }) => {
  await page.goto('/auth/platform-access');
  await page.getByLabel('Name').fill('Demo Again');
  await page.getByLabel('E-mail').fill('demo@needl.ai');
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toContainText(/already/i);
  await expect(page).toHaveURL(/\/auth\/platform-access$/);
});

test('the demo sign-in works, after being sent to sign-in from a protected page', async ({
  page,
}) => {
  await page.goto('/notifications');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.getByLabel('E-mail').fill('demo@needl.ai');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The stored redirect takes the visitor back to where they were going.
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.locator('.notification').first()).toBeVisible();
});

test('a wrong password shows the server error under the form', async ({ page }) => {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail').fill('demo@needl.ai');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await signIn(page);
});
