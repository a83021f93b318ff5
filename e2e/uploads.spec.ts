import { expect, test, type Page } from '@playwright/test';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANDING } from './helpers';

/**
 * Issue 20's journeys through the UI, one new user and one upload for both: they upload a PDF,
 * a DOCX, an XLSX and a Markdown file from /feeds/home/drives and watch them reach Completed;
 * open the PDF in the viewer (page 1 painted by pdf.js), share it and open the link in a
 * signed-out browser, revoke it and see the link refused; ask the assistant about the document
 * and follow the citation to the box on the page; find a sentence of each file by search,
 * attach a file to the assistant, summarise the PDF and delete the DOCX.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** In the PDF's first pages (tests/fixtures/uploads/nike-10k-item1.txt). */
const QUESTION = 'What does NIKE design, develop and market?';

async function signUp(page: Page) {
  await page.goto('/auth/platform-access');
  await page.getByLabel('Name').fill('Uma Uploader');
  await page.getByLabel('E-mail').fill(`uploads-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('a-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`${LANDING}$`));
}

/** A page of the viewer once pdf.js has painted it. */
const painted = (page: Page, n: number) =>
  page.locator(`.pdf-page[data-page-number="${n}"][data-rendered]`);

const FIXTURE = (name: string) => resolve(ROOT, 'tests/fixtures/uploads', name);
const results = (page: Page) =>
  page.getByRole('list', { name: 'Search results' }).getByRole('article');
const answers = (page: Page) => page.getByRole('article', { name: 'Answer' });

/** Searches My Data; answers once the results (or their absence) are shown. */
async function search(page: Page, q: string) {
  await page.goto(`/search?q=${encodeURIComponent(q)}`);
  await expect(page.getByText('No search results found.').or(results(page).first())).toBeVisible({
    timeout: 30_000,
  });
}

/** Asks in a new chat of the full-page assistant; answers the answer once it is done. */
async function askNew(page: Page, question: string) {
  await page.goto('/ask-needl/full');
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  const composer = page.getByRole('textbox', { name: 'Your question' });
  await composer.fill(question);
  await composer.press('Enter');
  const answer = answers(page).last();
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({
    timeout: 60_000,
  });
  return answer;
}

test('four types uploaded; the PDF viewed, shared signed out, revoked, cited to its box; found by search, asked as attachments, summarised, one deleted', async ({
  page,
  browser,
}) => {
  // The two journeys' budgets (150 s and 240 s) less the upload and sign-up they now share.
  test.setTimeout(330_000);
  await signUp(page);

  await test.step('upload a PDF, a DOCX, an XLSX and a Markdown file; all reach Completed', async () => {
    await page.goto('/feeds/home/drives');
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles(
        ['nike-10k-item1.pdf', 'footnotes.docx', 'nike-segments.xlsx', 'nike-markets.md'].map(
          FIXTURE,
        ),
      );
    const stored = page.getByRole('list', { name: 'Uploaded documents' }).getByRole('listitem');
    // The worker polls at 5 s, then 10 s: processing small files ends within those.
    await expect(stored.filter({ hasText: 'Completed' })).toHaveCount(4, { timeout: 90_000 });
    await stored
      .filter({ hasText: 'Completed' })
      .getByRole('link', { name: 'nike-10k-i…' })
      .click();
  });

  let title = '';
  await test.step('the preview shows the PDF, page 1 painted', async () => {
    await expect(page).toHaveURL(/\/preview\//);
    const viewer = page.getByRole('region', { name: /\(PDF\)$/ });
    await expect(viewer).toBeVisible();
    await expect(painted(page, 1)).toBeVisible();
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
    // The canvas holds a drawn page, not an empty surface.
    const drawn = await painted(page, 1)
      .locator('canvas')
      .evaluate((canvas: HTMLCanvasElement) => canvas.width > 0 && canvas.height > 0);
    expect(drawn).toBe(true);
    title = (await page.locator('.preview-title').innerText()).trim();
    expect(title.length).toBeGreaterThan(0);
  });

  await test.step('share: the link opens the PDF signed out; revoked, it is refused', async () => {
    await page.getByRole('button', { name: 'Share' }).click();
    const field = page.getByLabel('Anyone with this link can open the document');
    await expect(field).toHaveValue(/\/redirect\/document\?/);
    const link = await field.inputValue();

    const outside = await browser.newContext();
    const stranger = await outside.newPage();
    await stranger.goto(link);
    await expect(stranger.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(painted(stranger, 1)).toBeVisible();
    await expect(stranger).toHaveURL(/\/redirect\/document\?/);

    await page.getByRole('button', { name: 'Revoke link' }).click();
    await expect(page.getByText('Link revoked: it no longer opens the document.')).toBeVisible();
    await stranger.reload();
    await expect(
      stranger.getByText(
        'This link does not open a document: it was revoked by its owner, or it is not complete.',
      ),
    ).toBeVisible();
    await outside.close();
  });

  await test.step('ask about the document; its citation opens the page with the box', async () => {
    await page.getByRole('button', { name: 'Ask about this document' }).click();
    const composer = page.getByRole('textbox', { name: 'Your question' });
    await composer.fill(QUESTION);
    await composer.press('Enter');
    const answer = page.getByRole('article', { name: 'Answer' }).last();
    const marker = answer.getByRole('link', { name: /^Source 1: / });
    await expect(marker).toBeVisible({ timeout: 60_000 });
    await marker.click();
    await expect(page).toHaveURL(/overlay-type=preview/);
    await expect(page).toHaveURL(/overlay-boundingBox=/);
    const pageNumber = Number(new URL(page.url()).searchParams.get('overlay-pageNumber'));
    expect(pageNumber).toBeGreaterThanOrEqual(1);
    const panel = page.getByTestId('overlay');
    const box = panel.getByTestId('pdf-highlight');
    await expect(box).toBeVisible();
    // The box is on the cited page, and that page is painted.
    await expect(
      panel.locator(`.pdf-page[data-page-number="${pageNumber}"] .pdf-highlight`),
    ).toHaveCount(1);
    await expect(
      panel.locator(`.pdf-page[data-page-number="${pageNumber}"][data-rendered]`),
    ).toBeVisible();
    const size = await box.boundingBox();
    expect(size && size.width > 10 && size.height > 5).toBe(true);
  });

  await test.step('a sentence of each is found by search', async () => {
    // Each document by its title: the PDF's and the XLSX's from their properties, the
    // Markdown's from its first heading, the DOCX (no title of its own) by its file name.
    const sentences: Array<[string, string]> = [
      ['principal materials used in our footwear products', 'NIKE, Inc. Form 10-K 2023, Item 1'],
      ['A tachyon walks into a bar', 'footnotes.docx'],
      ['Global Brand Divisions', 'NIKE revenues by segment'],
      ['Converse sales accounted for approximately 57%', 'NIKE international markets'],
    ];
    for (const [q, title] of sentences) {
      await search(page, q);
      await expect(results(page).and(page.getByRole('article', { name: title }))).toHaveCount(1);
    }
  });

  await test.step('attached to the assistant, a file answers the question alone', async () => {
    await page.goto('/ask-needl/full');
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    const attach = page.getByRole('button', { name: 'Attach' });
    // Enabled once the upload settings are read.
    await expect(attach).toBeEnabled({ timeout: 30_000 });
    await page.getByLabel('Choose files to attach').setInputFiles(FIXTURE('nike-segments.xlsx'));
    const attached = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await expect(attached).toHaveCount(1);
    await expect(attached).toContainText('nike-segme…');
    const composer = page.getByRole('textbox', { name: 'Your question' });
    await composer.fill('What were Greater China revenues in fiscal 2023?');
    // Sending waits for the attachment to be processed (the worker's poll: 5 s, then 10 s).
    await expect(attached).toContainText('Completed', { timeout: 60_000 });
    const send = page.getByRole('button', { name: 'Send' });
    await expect(send).toBeEnabled();
    await send.click();
    // Sent: the composer's attachments are emptied; the answer reads the attached sheet only.
    await expect(page.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
    const answer = answers(page).last();
    await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible({
      timeout: 60_000,
    });
    // Searched over the attached sheet alone.
    await expect(answer).toContainText('Searching “nike-segments.xlsx”');
    await expect(answer).toContainText('Read 1 passage from 1 document');
  });

  await test.step('summarise the PDF and get the notification', async () => {
    await page.goto('/feeds/home/drives');
    await page
      .getByRole('list', { name: 'Uploaded documents' })
      .getByRole('link', { name: 'nike-10k-i…' })
      .click();
    await expect(page).toHaveURL(/\/preview\//);
    const title = (await page.locator('.preview-title').innerText()).trim();
    await page.getByRole('button', { name: 'Summarize' }).click();
    await expect(
      page.getByText(
        'Your summary is currently being generated, and we will notify you once it is complete.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'View Summary' })).toBeVisible({
      timeout: 60_000,
    });
    await page.goto('/notifications');
    await expect(page.getByText(`Summary ready: ${title}`)).toBeVisible({ timeout: 30_000 });
  });

  await test.step('delete the DOCX: gone from search and from the assistant', async () => {
    const before = await askNew(page, 'What walks into a bar?');
    await expect(before).toContainText('tachyon');

    await page.goto('/feeds/home/drives');
    await page
      .getByRole('list', { name: 'Uploaded documents' })
      .getByRole('link', { name: 'footnotes.…' })
      .click();
    await expect(page).toHaveURL(/\/preview\//);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete document' }).click();
    // Back in the drive, the file is no longer listed.
    await expect(page).toHaveURL(/\/feeds\/home\/drives/);
    await expect(
      page
        .getByRole('list', { name: 'Uploaded documents' })
        .getByRole('link', { name: 'footnotes.…' }),
    ).toHaveCount(0);

    await search(page, 'A tachyon walks into a bar');
    await expect(results(page).filter({ hasText: /tachyon/i })).toHaveCount(0);
    const after = await askNew(page, 'What walks into a bar?');
    await expect(after).not.toContainText('tachyon');
  });
});
