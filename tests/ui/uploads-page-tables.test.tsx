import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TableExtractionResult } from '../../contract/extract';
import { FEED_FLAGS } from './feed-fixtures';
import { apiError, renderShell, setViewportWidth, SIGNED_IN } from './shell-fake-workspace';
import { DRIVE_SOURCE, fakePdf, noSummary, uploadedPdf } from './uploads-fixtures';

// Issue 20 item 6: table extraction on a page of an uploaded PDF in the preview (flag
// doc_table_extraction; POST /ml/table-extraction through the worker's tables.page): starting at
// the cited page, each table shown with its header row, a page without tables said so, and the
// server's refusal shown in its words. jsdom draws no PDF: pdf.js is a stand-in of 4 pages
// (uploads-fixtures.ts).
vi.mock(
  '../../src/features/uploads/pdfjs',
  async () => (await import('./uploads-fixtures')).fakePdfjs,
);

beforeEach(() => {
  setViewportWidth(1600);
  fakePdf.reset(4, { width: 612, height: 792 });
});
afterEach(cleanup);

const SOURCE = DRIVE_SOURCE;
const segmentsPdf = uploadedPdf('Segment revenues', 'NIKE Brand revenues by segment (in millions)');

const page = (n: number, tables: TableExtractionResult['results']['tables']) => ({
  deeplink: 'doc-1',
  page_number: n,
  num_pages: 4,
  page_width: 612,
  page_height: 792,
  tables,
});

const open = (flags: Record<string, boolean>, handlers = {}) =>
  renderShell({
    path: `/preview/${SOURCE}/doc-1?pageNumber=2`,
    session: SIGNED_IN,
    handlers: {
      'flags.get': () => ({ ...FEED_FLAGS, ...flags }),
      'doc.get': () => segmentsPdf,
      'docFile.original': () => new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
      'docFile.summaryStatus': () => noSummary,
      ...handlers,
    },
  });

describe('tables of a PDF page', () => {
  it('is offered only with the flag doc_table_extraction', async () => {
    await open({ doc_table_extraction: false, doc_share: true });
    await screen.findByRole('button', { name: 'Share' });
    expect(screen.queryByRole('button', { name: 'Tables' })).toBeNull();
  });

  it('extracts the cited page’s tables, then another page’s', async () => {
    const view = await open(
      { doc_table_extraction: true },
      {
        'tables.page': ({ page_number }: { page_number: number }) => {
          if (page_number === 2) {
            return page(2, [
              {
                box: [64, 120, 548, 200],
                rows: [
                  ['Segment', 'Fiscal 2023', 'Fiscal 2022'],
                  ['North America', '$ 21,608', '$ 18,353'],
                  ['Greater China', '7,248', '7,547'],
                ],
              },
            ]);
          }
          if (page_number === 3) return page(3, []);
          throw apiError(400, 'bad_request', 'deeplink: The PDF is damaged and cannot be read.');
        },
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Tables' }));
    const panel = screen.getByRole('region', { name: 'Tables on a page' });
    const field = within(panel).getByLabelText('Page') as HTMLInputElement;
    // The viewer's page (the citation's) first.
    expect(field.value).toBe('2');
    fireEvent.click(within(panel).getByRole('button', { name: 'Extract tables' }));
    const table = await within(panel).findByRole('table', { name: 'Table 1 of page 2' });
    expect(within(panel).getByText('1 table on page 2 of 4')).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Segment', 'Fiscal 2023', 'Fiscal 2022']);
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    ).toEqual([
      ['North America', '$ 21,608', '$ 18,353'],
      ['Greater China', '7,248', '7,547'],
    ]);
    expect(view.calls.filter((c) => c.op === 'tables.page').map((c) => c.input)).toEqual([
      { deeplink: 'doc-1', page_number: 2 },
    ]);

    fireEvent.change(field, { target: { value: '3' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Extract tables' }));
    expect(await within(panel).findByText('No tables found on page 3 of 4.')).toBeTruthy();
    expect(within(panel).queryByRole('table')).toBeNull();

    fireEvent.change(field, { target: { value: '4' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Extract tables' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'deeplink: The PDF is damaged and cannot be read.',
    );
    await waitFor(() => expect(view.calls.filter((c) => c.op === 'tables.page')).toHaveLength(3));
  });
});
