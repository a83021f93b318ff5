import { expect, test, type Locator } from '@playwright/test';
import { overlayWidths, widthPx } from '../src/lib/overlay';
import { LANDING, searchOf, signIn } from './helpers';

/** The panel slides in; measure it once the slide has finished. */
const settled = (panel: Locator) =>
  panel.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('an overlay opened by URL renders at its width and closes cleanly', async ({ page }) => {
  await page.goto(`${LANDING}?q=rates&overlay-type=portfolio`);
  const panel = page.getByTestId('overlay');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Create Portfolio' })).toBeVisible();

  await settled(panel);
  const viewport = page.viewportSize()?.width ?? 1600;
  const expected = widthPx(overlayWidths('portfolio').current, viewport);
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(Math.abs((box?.width ?? 0) - expected)).toBeLessThanOrEqual(2);
  // The panel sits at the right edge.
  expect(Math.abs((box?.x ?? 0) + (box?.width ?? 0) - viewport)).toBeLessThanOrEqual(2);

  // An overlay opening closes the navigation (000 §4).
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'closed');

  await panel.getByRole('button', { name: 'Close panel' }).click();
  await expect(panel).toHaveCount(0);
  expect(searchOf(page)).toEqual({ q: 'rates' });
  // ...and closing it reopens the navigation on a wide screen.
  await expect(page.locator('#side-nav')).toHaveAttribute('data-state', 'opened');
});

test('the preview overlay opens with its params at 80% of the viewport', async ({ page }) => {
  await page.goto(
    `${LANDING}?overlay-type=preview&overlay-source=rss&overlay-category=feeds&overlay-deeplink=doc-1`,
  );
  const panel = page.getByTestId('overlay');
  await expect(panel.getByRole('heading', { name: 'Preview' })).toBeVisible();
  await settled(panel);
  const box = await panel.boundingBox();
  expect(Math.abs((box?.width ?? 0) - widthPx(80, 1600))).toBeLessThanOrEqual(2);
  await panel.getByRole('button', { name: 'Close panel' }).click();
  await expect(panel).toHaveCount(0);
  expect(searchOf(page)).toEqual({});
});

test('an invalid overlay URL shows the spec error text', async ({ page }) => {
  await page.goto(`${LANDING}?overlay-type=report`);
  await expect(page.getByTestId('overlay').getByRole('alert')).toHaveText(
    'Invalid Overlay params supplied!',
  );

  await page.goto(`${LANDING}?overlay-type=not-a-panel`);
  await expect(page.getByTestId('overlay').getByRole('alert')).toHaveText(
    'Overlay Type not found!',
  );
});

test('the assistant button opens the panel with focus in it; Escape closes it and focus returns', async ({
  page,
}) => {
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
