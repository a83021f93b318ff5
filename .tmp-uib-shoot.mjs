import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4391';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
await page.goto(base + '/auth/signin');
await page.getByLabel('E-mail').fill('demo@needl.ai');
await page.getByLabel('Password').fill('demo-password');
await page.getByRole('button', { name: 'Sign in' }).click();
await page.waitForURL(/feeds/);
const shot = async (url, name, act) => {
  await page.goto(base + url);
  await page.waitForTimeout(2500);
  if (act) await act();
  await page.screenshot({ path: `/tmp/uib-shots/${name}.png`, fullPage: false });
};
await shot('/feeds/home?overlay-type=custom-feed', 'select');
await shot('/feeds/home?overlay-type=custom-feed&overlay-page=create-feed', 'create', async () => {
  await page.getByLabel('Feed name').fill('Chip watch');
  await page.getByPlaceholder('Add a keyword').fill('("chip" OR semiconductor) AND NOT lawsuit');
  await page.getByPlaceholder('Add a keyword').press('Enter');
  await page.getByPlaceholder('Add a keyword').fill('(chip');
  await page.waitForTimeout(1500);
});
await shot('/custom-feed?type=custom-feed&page=create-ai-feed', 'ai');
await shot('/settings/feeds/root', 'manager');
await shot('/custom-feed?type=custom-feed&page=feed-suggestion', 'suggestions');
await browser.close();
