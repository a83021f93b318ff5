import { expect, test } from '@playwright/test';
import {
  apiToken,
  E2E_PORT,
  holdDemoUser,
  serverReadState,
  signInAt,
  waitForAppShell,
} from './helpers';
import { startOutageProxy } from './outage-proxy';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

test('with the server down, a reload starts the app from its shell and a change made then lands on return', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const proxy = await startOutageProxy({ host: '127.0.0.1', port: E2E_PORT });
  try {
    const token = await apiToken(request);
    await signInAt(page, proxy.origin);
    const cards = page.getByRole('list', { name: 'Feed documents' }).getByRole('article');
    const unread = cards.and(page.locator('.unread')).first();
    await expect(unread).toBeVisible();
    const title = (await unread.getByRole('heading').innerText()).trim();
    const deeplink = (await unread.getAttribute('data-deeplink')) ?? '';
    expect(await serverReadState(request, token, deeplink)).toBe('unread');
    // The shell is kept once the service worker controls the page.
    await waitForAppShell(page);

    // The server goes (the app's files and the API alike), and the page is reloaded.
    proxy.cut();
    await page.reload();
    await expect(page.getByText('Offline: the server cannot be reached.')).toBeVisible();
    const card = page.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    await expect(card).toHaveClass(/unread/);
    await card.getByRole('button', { name: 'Mark as read' }).click();
    await expect(card).not.toHaveClass(/unread/);
    expect(await serverReadState(request, token, deeplink)).toBe('unread');

    // The server is back: the worker's next probe finds it and the write lands.
    proxy.restore();
    const back = Date.now();
    await expect
      .poll(() => serverReadState(request, token, deeplink), { timeout: 3_000, intervals: [100] })
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
