import { expect, test, type APIRequestContext } from '@playwright/test';
import { LANDING } from './helpers';
import { startOutageProxy } from './outage-proxy';

const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);

/** The server's copy of the user's preferences, asked directly (not through the proxy). */
async function storedNavState(request: APIRequestContext, token: string) {
  const answer = await request.get(`http://127.0.0.1:${E2E_PORT}/api/user/preferences`, {
    headers: { token, 'app-type': 'main', 'x-request-origin': 'web-app' },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { nav_state: string | null }).nav_state;
}

test('a change made during an outage reaches the server as soon as the network returns', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000);
  const proxy = await startOutageProxy({ host: '127.0.0.1', port: E2E_PORT });
  try {
    const email = `outage-${Date.now()}@example.com`;
    const password = 'a-long-password';
    const signedUp = await request.post(`http://127.0.0.1:${E2E_PORT}/api/auth/signup`, {
      data: { name: 'Outage Tester', email, password },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(201);
    const { id_token: token } = (await signedUp.json()) as { id_token: string };

    await page.goto(`${proxy.origin}/auth/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
    const nav = page.locator('#side-nav');
    await expect(nav).toHaveAttribute('data-state', 'opened');
    expect(await storedNavState(request, token)).not.toBe('closed');

    // The network goes: the page hears 'offline', and the worker's requests fail.
    proxy.cut();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Close navigation' }).click();
    await expect(nav).toHaveAttribute('data-state', 'closed');

    // The worker keeps trying and failing (its backoff grows: 5 s, then 10 s...). Wait until
    // it has retried, so its next own attempt is well over the deadline below.
    const refusedAtChange = proxy.refused();
    await expect
      .poll(() => proxy.refused() - refusedAtChange, { timeout: 30_000, intervals: [250] })
      .toBeGreaterThanOrEqual(4);
    expect(await storedNavState(request, token)).not.toBe('closed');

    // The network is back: the tab says so, and the change is sent at once.
    const url = page.url();
    proxy.restore();
    await context.setOffline(false);
    await expect
      .poll(() => storedNavState(request, token), { timeout: 4_000, intervals: [200] })
      .toBe('closed');
    // No route change was needed for it.
    expect(page.url()).toBe(url);
  } finally {
    await context.setOffline(false);
    await proxy.close();
  }
});
