import { expect, test, type Page } from '@playwright/test';
import { DEMO, LANDING, signOutAndExpectModalIn } from './helpers';

/**
 * Browsers without SharedWorker: each tab runs its own dedicated worker. The workers share the
 * origin's IndexedDB and tell each other about sign-in and sign-out over BroadcastChannel.
 */
test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    delete (window as { SharedWorker?: unknown }).SharedWorker;
  });
});

/** The tab really runs the fallback: no SharedWorker, and a dedicated worker of its own. */
async function expectDedicatedWorker(page: Page) {
  expect(await page.evaluate(() => typeof SharedWorker)).toBe('undefined');
  await expect
    .poll(() => page.workers().map((worker) => new URL(worker.url()).pathname))
    .toContainEqual(expect.stringMatching(/\/dedicated-worker[^/]*\.js$/));
}

test('without SharedWorker, sign-in and sign-out reach the other tab through BroadcastChannel', async ({
  context,
}) => {
  // The other tab opens a protected page first and is sent to sign-in.
  const other = await context.newPage();
  await other.goto('/notifications');
  await expect(other).toHaveURL(/\/auth\/signin$/);
  await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectDedicatedWorker(other);

  const page = await context.newPage();
  await page.goto('/auth/signin');
  await expectDedicatedWorker(page);
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The redirect the other tab stored lives in the shared IndexedDB: this tab takes it.
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();

  // The other tab was showing sign-in: its worker adopts the session and the tab moves on to the
  // landing route by itself (the stored redirect went to the tab that signed in).
  await expect(other).toHaveURL(new RegExp(`${LANDING}$`));
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  // A reload starts a new dedicated worker, which reads the same session from IndexedDB.
  await other.reload();
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  await expectDedicatedWorker(other);

  // Signing out in one tab shows the sign-in-required modal in the other.
  const dialog = await signOutAndExpectModalIn(page, other);
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(other).toHaveURL(/\/auth\/signin$/);
  await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
