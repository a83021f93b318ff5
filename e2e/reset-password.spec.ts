import { expect, test } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANDING } from './helpers';

type SentMail = { to: string; from: string; subject: string; text: string; sent_at: string };

/**
 * Without SMTP the server also writes each mail to `${DATA_DIR}/mail/*.json`. playwright.config.ts
 * fixes the e2e server's DATA_DIR in E2E_DATA_DIR, which this worker process inherits.
 */
function mailDir() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir)
    throw new Error('E2E_DATA_DIR is not set: run the specs with e2e/playwright.config.ts');
  return join(dataDir, 'mail');
}

/** Every mail written so far to `to`, oldest first. */
async function mailTo(to: string): Promise<SentMail[]> {
  const dir = mailDir();
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails: SentMail[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const mail = JSON.parse(await readFile(join(dir, name), 'utf8')) as SentMail;
      if (mail.to === to) mails.push(mail);
    } catch {
      // A file still being written: the next poll reads it whole.
    }
  }
  return mails.sort((a, b) => a.sent_at.localeCompare(b.sent_at));
}

test('forgot password, reset it from the mailed link, then sign in with the new password', async ({
  page,
  request,
}) => {
  const email = `reset-${Date.now()}@example.com`;
  const oldPassword = 'the-old-password';
  const newPassword = 'a-brand-new-password';
  const signedUp = await request.post('/api/auth/signup', {
    data: { name: 'Reset Tester', email, password: oldPassword },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);

  await page.goto('/auth/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText(`If an account exists for ${email}`);

  let mail: SentMail | undefined;
  await expect
    .poll(async () => (mail = (await mailTo(email)).at(-1)) !== undefined, {
      message: `a reset mail to ${email} in ${mailDir()}`,
      timeout: 10_000,
    })
    .toBe(true);
  const link = mail?.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/)?.[0];
  expect(link, `the reset link in the mail text:\n${mail?.text}`).toBeTruthy();

  // The link names the server's public URL; open its path on the origin under test.
  const { pathname, search } = new URL(link ?? '');
  await page.goto(pathname + search);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password changed' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);

  // The old password no longer works...
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(oldPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('e-mail or password is incorrect');
  await expect(page).toHaveURL(/\/auth\/signin$/);

  // ...the new one does.
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  await expect(page.getByText('Reset Tester')).toBeVisible();
});
