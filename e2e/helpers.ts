import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export const DEMO = { email: 'demo@needl.ai', password: 'demo-password' };

/** The e2e server, asked directly (not through an outage proxy). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const API = `http://127.0.0.1:${E2E_PORT}/api`;
export const API_HEADERS = { 'app-type': 'main', 'x-request-origin': 'web-app' };

/**
 * The landing route (000 §2) of an account with the server's default flags: my_data is on, and
 * the first source family of my data is RSS news.
 */
export const LANDING = '/feeds/home/rss_news';

/**
 * Signs in through the form, on the configured server or, with `origin`, through another
 * address of it (an outage proxy, outage-proxy.ts), and waits for the landing route.
 */
export async function signInAt(page: Page, origin: string, account = DEMO) {
  await page.goto(`${origin}/auth/signin`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
}

/** The account's API token, from the server directly. */
export async function apiToken(request: APIRequestContext, account = DEMO) {
  const answer = await request.post(`${API}/auth/signin`, { data: account });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { id_token: string }).id_token;
}

/** A document's read state as the server has it ('read' or 'unread'), asked directly. */
export async function serverReadState(request: APIRequestContext, token: string, deeplink: string) {
  const answer = await request.get(`${API}/doc/read_Status/${encodeURIComponent(deeplink)}`, {
    headers: { ...API_HEADERS, token },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { status: string }).status;
}

/**
 * Waits until the service worker controls the page: from then on a reload with the server
 * down starts the app from its kept shell.
 */
export async function waitForAppShell(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 20_000,
    })
    .toBe(true);
}

export async function signIn(page: Page, account = DEMO) {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
}

/** Signs in in `page`, then opens a second tab of the same browser on the landing route. */
export async function signInWithSecondTab(page: Page, context: BrowserContext) {
  await signIn(page);
  const other = await context.newPage();
  await other.goto(LANDING);
  await expect(other.getByRole('heading', { level: 1, name: 'My Data' })).toBeVisible();
  return other;
}

/** The query of the page's URL as a plain object. */
export const searchOf = (page: Page) =>
  Object.fromEntries(new URL(page.url()).searchParams.entries());

/**
 * Sign out in `page`: it goes to sign-in with no dialog, and `other` shows the
 * sign-in-required modal with its one Reload button. Returns that dialog.
 */
export async function signOutAndExpectModalIn(page: Page, other: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const dialog = other.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You have been logged out');
  await expect(dialog.getByRole('button')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeVisible();
  return dialog;
}

/**
 * A browser context and page shared by the tests of a file (made in its beforeAll): a context
 * of the project's address and viewport (or `viewport`), signed in as the demo user once. The
 * tests run in order in one worker; a failure starts a new worker, whose beforeAll signs in again.
 */
export async function sharedSignedInPage(
  browser: Browser,
  viewport?: { width: number; height: number },
) {
  // Its own budget: the tests' budgets no longer include a sign-in, and a busy machine is slow.
  test.setTimeout(60_000);
  const use = test.info().project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    viewport: viewport ?? use.viewport ?? undefined,
  });
  const page = await context.newPage();
  await signIn(page);
  return { context, page };
}

/**
 * The demo user's workspace, one spec file at a time. The journeys run in two workers, but the
 * specs that sign in as the demo user read and change its one workspace (read states, followed
 * sources, feeds, preferences): such a file holds this lock from its first test to its last,
 * so two of them never overlap, while the specs with users of their own run beside them. A
 * directory under the run's E2E_DATA_DIR is the lock (mkdir is atomic); it names the holding
 * worker process, and a lock whose process has gone is taken over.
 */
export function holdDemoUser() {
  const dir = join(process.env.E2E_DATA_DIR ?? tmpdir(), 'demo-user.lock');
  let held = false;
  test.beforeAll(async () => {
    // As long as the other worker's demo file takes.
    test.setTimeout(600_000);
    for (;;) {
      try {
        mkdirSync(dir);
        writeFileSync(join(dir, 'pid'), String(process.pid));
        held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (!holderAlive(dir)) rmSync(dir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  test.afterAll(() => {
    if (held) rmSync(dir, { recursive: true, force: true });
    held = false;
  });
}

/** Whether the lock's holder lives (or is still writing its name, or has just let go). */
function holderAlive(dir: string) {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  } catch {
    return true;
  }
  if (!(pid > 0)) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
