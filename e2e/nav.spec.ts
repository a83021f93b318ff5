import { expect, test } from '@playwright/test';
import { API, E2E_PORT, signInAt } from './helpers';

test('the navigation toggle is remembered across a reload (nav_state)', async ({
  page,
  request,
}) => {
  // A user of its own: the demo user's navigation state is whatever the specs before left it.
  const account = { email: `nav-${Date.now()}@example.com`, password: 'a-long-password' };
  const signedUp = await request.post(`${API}/auth/signup`, {
    data: { name: 'Nav Tester', ...account },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  await signInAt(page, `http://127.0.0.1:${E2E_PORT}`, account);
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
