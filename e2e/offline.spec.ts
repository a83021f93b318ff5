import { expect, test, type APIRequestContext } from '@playwright/test';
import { API, API_HEADERS, E2E_PORT, signInAt } from './helpers';
import { startOutageProxy } from './outage-proxy';

/** The server's copy of the user's preferences, asked directly (not through the proxy). */
async function storedNavState(request: APIRequestContext, token: string) {
  const answer = await request.get(`${API}/user/preferences`, {
    headers: { ...API_HEADERS, token },
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
    const signedUp = await request.post(`${API}/auth/signup`, {
      data: { name: 'Outage Tester', email, password },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(201);
    const { id_token: token } = (await signedUp.json()) as { id_token: string };

    await signInAt(page, proxy.origin, { email, password });
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

    // The page says so, and the change waits: the worker has tried and failed (the proxy refused
    // its connections) and the server still holds the old state.
    const changedAt = Date.now();
    await expect(page.getByText('Offline: the server cannot be reached.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: '1 change waiting' })).toBeVisible();
    await expect
      .poll(() => proxy.attempts(changedAt).bursts, { timeout: 20_000, intervals: [250] })
      .toBeGreaterThanOrEqual(2);
    expect(await storedNavState(request, token)).not.toBe('closed');

    // The network is back, with no news from the tab this time: the worker's own probe (every
    // half second while offline) finds the server and sends the change at once.
    const url = page.url();
    proxy.restore();
    await expect
      .poll(() => storedNavState(request, token), { timeout: 4_000, intervals: [200] })
      .toBe('closed');
    await expect(page.getByText('Offline: the server cannot be reached.')).toBeHidden();
    // No route change was needed for it.
    expect(page.url()).toBe(url);
  } finally {
    await proxy.close();
  }
});
