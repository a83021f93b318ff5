import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, LANDING } from './helpers';
import { startOutageProxy } from './outage-proxy';

const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
const API = `http://127.0.0.1:${E2E_PORT}/api`;
const HEADERS = { 'app-type': 'main', 'x-request-origin': 'web-app' };

/** The server's own answer (asked directly, not through the proxy). */
async function readState(request: APIRequestContext, token: string, deeplink: string) {
  const answer = await request.get(`${API}/doc/read_Status/${encodeURIComponent(deeplink)}`, {
    headers: { ...HEADERS, token },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { status: string }).status;
}

test('with the server down, a reload starts the app from its shell and a change made then lands on return', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const proxy = await startOutageProxy({ host: '127.0.0.1', port: E2E_PORT });
  try {
    const signedIn = await request.post(`${API}/auth/signin`, { data: DEMO });
    expect(signedIn.status()).toBe(200);
    const { id_token: token } = (await signedIn.json()) as { id_token: string };

    await page.goto(`${proxy.origin}/auth/signin`);
    await page.getByLabel('E-mail').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
    const cards = page.getByRole('list', { name: 'Feed documents' }).getByRole('article');
    const unread = cards.and(page.locator('.unread')).first();
    await expect(unread).toBeVisible();
    const title = (await unread.getByRole('heading').innerText()).trim();
    const deeplink = (await unread.getAttribute('data-deeplink')) ?? '';
    expect(await readState(request, token, deeplink)).toBe('unread');
    // The shell is kept once the service worker controls the page.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
        timeout: 20_000,
      })
      .toBe(true);

    // The server goes (the app's files and the API alike), and the page is reloaded.
    proxy.cut();
    await page.reload();
    await expect(page.getByText('Offline: the server cannot be reached.')).toBeVisible();
    const card = page.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    await expect(card).toHaveClass(/unread/);
    await card.getByRole('button', { name: 'Mark as read' }).click();
    await expect(card).not.toHaveClass(/unread/);
    expect(await readState(request, token, deeplink)).toBe('unread');

    // The server is back: the worker's next probe finds it and the write lands.
    proxy.restore();
    const back = Date.now();
    await expect
      .poll(() => readState(request, token, deeplink), { timeout: 3_000, intervals: [100] })
      .toBe('read');
    // The figure (issue 18 asks for within 1 s): reported with the run, not asserted to the ms.
    test
      .info()
      .annotations.push({ type: 'write landed after', description: `${Date.now() - back} ms` });
    await expect(page.getByText('Offline: the server cannot be reached.')).toBeHidden();
  } finally {
    await proxy.close();
  }
});
