import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { holdDemoUser, LANDING, searchOf, sharedSignedInPage } from './helpers';

// Reads and changes the demo user's workspace: one such file at a time (helpers.ts).
holdDemoUser();

/** The panel slides in; measure it once the slide has finished. */
const settled = (panel: Locator) =>
  panel.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));

// One sign-in for the file: each test opens its own address on the shared page.
let context: BrowserContext;
let page: Page;
test.beforeAll(async ({ browser }) => {
  ({ context, page } = await sharedSignedInPage(browser));
});
test.afterAll(async () => {
  await context?.close();
});

test('an overlay opened by URL renders at its width and closes cleanly', async () => {
  await page.goto(`${LANDING}?q=rates&overlay-type=portfolio`);
  const panel = page.getByTestId('overlay');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Create Portfolio' })).toBeVisible();

  await settled(panel);
  // Portfolio opens at 50% (000 §9) of the 1600 px viewport, at the right edge.
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.abs((box?.width ?? 0) - 800)).toBeLessThanOrEqual(2);
  expect(Math.abs((box?.x ?? 0) + (box?.width ?? 0) - 1600)).toBeLessThanOrEqual(2);

  // Its title takes focus (for screen readers) without a ring drawn as if it were a field.
  const title = panel.getByRole('heading', { name: 'Create Portfolio' });
  await expect(title).toBeFocused();
  expect(await title.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');

  // An overlay opening closes the navigation (000 §4).
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'closed');

  await panel.getByRole('button', { name: 'Close panel' }).click();
  await expect(panel).toHaveCount(0);
  expect(searchOf(page)).toEqual({ q: 'rates' });
  // ...and closing it reopens the navigation on a wide screen.
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'opened');
});

test('the preview overlay opens with its params at 80% of the viewport', async () => {
  await page.goto(
    `${LANDING}?overlay-type=preview&overlay-source=rss&overlay-category=feeds&overlay-deeplink=doc-1`,
  );
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { name: 'Preview' })).toBeVisible();
  await settled(panel);
  // Preview opens at 80% (000 §9) of the 1600 px viewport.
  const box = await panel.boundingBox();
  expect(Math.abs((box?.width ?? 0) - 1280)).toBeLessThanOrEqual(2);
  await panel.getByRole('button', { name: 'Close panel' }).click();
  await expect(panel).toHaveCount(0);
  expect(searchOf(page)).toEqual({});
});

test('an invalid overlay URL shows the spec error text', async () => {
  await page.goto(`${LANDING}?overlay-type=report`);
  await expect(page.getByTestId('overlay').getByRole('alert')).toHaveText(
    'Invalid Overlay params supplied!',
  );

  await page.goto(`${LANDING}?overlay-type=not-a-panel`);
  await expect(page.getByTestId('overlay').getByRole('alert')).toHaveText(
    'Overlay Type not found!',
  );
});

test('the assistant button opens the panel with focus in it; Escape closes it and focus returns', async () => {
  await page.goto(`${LANDING}?q=rates`);
  const button = page.getByRole('button', { name: 'Open AskNeedl' });
  await button.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { name: 'AskNeedl' })).toBeFocused();
  expect(searchOf(page)).toEqual({ q: 'rates', 'overlay-type': 'ask-needl' });

  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  expect(searchOf(page)).toEqual({ q: 'rates' });
  await expect(button).toBeFocused();
});

test('dragging the panel edge to the left of the window does not peek the navigation', async () => {
  await page.goto(`${LANDING}?overlay-type=ask-needl`);
  const panel = page.getByTestId('overlay');
  await settled(panel);
  const nav = page.locator('#side-nav');
  await expect(nav).toHaveAttribute('data-state', 'closed');

  const handle = panel.getByRole('separator', { name: 'Resize panel' });
  const box = await handle.boundingBox();
  if (!box) throw new Error('the resize handle has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  // Through the peek zone at the window's left edge, and back a little, still dragging.
  await page.mouse.move(2, box.y + 200, { steps: 20 });
  await page.mouse.move(6, box.y + 220, { steps: 4 });
  await expect(nav).toHaveAttribute('data-state', 'closed');
  // Clamped to the assistant's maximum, 80% of 1600 px.
  await expect(panel).toHaveCSS('width', '1280px');
  await page.mouse.up();
});
