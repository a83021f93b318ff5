import { describe, expect, it } from 'vitest';
import type { UploadRow } from '../../contract/upload-client';
import { writePdf } from '../../server/summaries/pdf-writer';
import { createManualClock } from '../../worker/testing';
import { newUser, setupWorkspaceSuite } from './support';

/**
 * Table extraction from a tab (issue 20 item 6): `tables.page` asks POST /ml/table-extraction
 * for a page of the user's uploaded PDF, uploaded and processed through the worker's uploads.
 */
const suite = setupWorkspaceSuite({ ingest: false, uploadJobs: false });

/** One page with a table of real figures (NIKE, Inc. fiscal 2023 10-K, revenues by segment). */
const TABLE_PDF = writePdf({
  blocks: [
    { text: 'NIKE Brand revenues by segment (in millions)', bold: true },
    { text: '', cells: ['Segment', 'Fiscal 2023', 'Fiscal 2022'], bold: true },
    { text: '', cells: ['North America', '$ 21,608', '$ 18,353'] },
    { text: '', cells: ['Greater China', '7,248', '7,547'] },
  ],
});

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never matched: ${JSON.stringify(await read())}`);
}

describe('tables of a PDF page from the worker', () => {
  it('answers the page’s tables, and refuses a document that is not a PDF', async () => {
    const clock = createManualClock(Date.now());
    const ws = suite.workspace({ clock });
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    const files = [
      { id: 'p1', name: 'segments.pdf', data: new Blob([new Uint8Array(TABLE_PDF)]) },
      { id: 'm1', name: 'notes.md', data: new Blob(['# Notes\n\nNo tables here.\n']) },
    ].map((f) => ({ ...f, size: f.data.size, type: '' }));
    await tab.api.call('uploads.start', { files });
    await waitFor(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'PROCESSING'),
    );
    await suite.env.server.uploads.runDue();
    await clock.advance(5000);
    const rows = await waitFor(
      () => tab.api.call('uploads.list', {}),
      (all) => all.every((r) => r.status === 'COMPLETED'),
    );
    const deeplink = (id: string) => (rows.find((r) => r.id === id) as UploadRow).deeplink!;

    const tables = await tab.api.call('tables.page', {
      deeplink: deeplink('p1'),
      page_number: 1,
    });
    expect(tables).toMatchObject({ page_number: 1, num_pages: 1, page_width: 612 });
    expect(tables.tables.map((t) => t.rows)).toEqual([
      [
        ['Segment', 'Fiscal 2023', 'Fiscal 2022'],
        ['North America', '$ 21,608', '$ 18,353'],
        ['Greater China', '7,248', '7,547'],
      ],
    ]);
    await expect(
      tab.api.call('tables.page', { deeplink: deeplink('m1'), page_number: 1 }),
    ).rejects.toMatchObject({
      status: 400,
      message:
        'deeplink: table extraction reads PDF documents only; this document is a Markdown file',
    });
  });
});
