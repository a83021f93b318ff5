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

    // The network goes: the worker's requests fail, and the page hears 'offline'. The window's
    // event is what a browser fires; it is dispatched here rather than through setOffline, which
    // would also tell the worker directly and so hide whether the tab passes the news on.
    proxy.cut();
    await page.evaluate(() => window.dispatchEvent(new Event('offline')));
    await page.getByRole('button', { name: 'Close navigation' }).click();
    await expect(nav).toHaveAttribute('data-state', 'closed');

    // The worker keeps trying and failing, each time waiting longer (5 s, then 10 s, 20 s...).
    // Wait until it has tried twice and its second try is over: its next own try is then about
    // 10 s away, well past the deadline below, so only the tab's news can send the change in time.
    const changedAt = Date.now();
    await expect
      .poll(
        () => {
          const { bursts, quietMs } = proxy.attempts(changedAt);
          return bursts >= 2 && quietMs > 1_000;
        },
        { timeout: 40_000, intervals: [250] },
      )
      .toBe(true);
    expect(await storedNavState(request, token)).not.toBe('closed');

    // The network is back: the tab says so, and the change is sent at once.
    const url = page.url();
    proxy.restore();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(() => storedNavState(request, token), { timeout: 4_000, intervals: [200] })
      .toBe('closed');
    // No route change was needed for it.
    expect(page.url()).toBe(url);
  } finally {
    await proxy.close();
  }
});
