import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SummaryStatus } from '../../contract/extract';
import {
  anchorAt,
  boxOnPage,
  canvasScale,
  MAX_RENDERED_PAGES,
  openingScroll,
  pageLayout,
  scrollFor,
  visiblePages,
} from '../../src/features/uploads/pdf-layout';
import { FEED_FLAGS } from './feed-fixtures';
import {
  apiError,
  renderShell,
  setViewportWidth,
  SIGNED_IN,
  SIGNED_OUT,
} from './shell-fake-workspace';
import { DRIVE_SOURCE, fakePdf, noSummary, uploadedPdf as nikeReport } from './uploads-fixtures';

// jsdom draws nothing: pdf.js is replaced by a document of pages 400 x 500 points that records
// which pages were drawn, opened and given back (uploads-fixtures.ts). Opening a file larger
// than its first chunk, it reads the file's last 1,000 bytes as pdf.js reads the cross-reference table.
vi.mock(
  '../../src/features/uploads/pdfjs',
  async () => (await import('./uploads-fixtures')).fakePdfjs,
);

beforeEach(() => {
  setViewportWidth(1600);
  fakePdf.reset();
});
afterEach(cleanup);

const SOURCE = DRIVE_SOURCE;
const uploadedPdf = nikeReport();

/** A 200,000-byte PDF read by ranges: byte i is i % 251. */
const FILE_SIZE = 200_000;
const rangeOf = ({ start, end }: { start: number; end: number }) => {
  const last = Math.min(end, FILE_SIZE - 1);
  return {
    size: FILE_SIZE,
    bytes: Uint8Array.from({ length: last - start + 1 }, (_, i) => (start + i) % 251),
  };
};

const ALL_DOC_FLAGS = {
  ...FEED_FLAGS,
  doc_share: true,
  doc_download: true,
  doc_delete: true,
  doc_summarization: true,
};

describe('where the PDF viewer puts pages and the cited box', () => {
  const size = { width: 400, height: 500 };
  const layout = pageLayout(10, () => undefined, size, 800);

  it('fits each page to the width, one under the other with 12 px between', () => {
    expect(layout.scales[0]).toBe(2);
    expect(layout.heights[0]).toBe(1000);
    expect(layout.tops.slice(0, 3)).toEqual([0, 1012, 2024]);
    expect(layout.total).toBe(10 * 1000 + 9 * 12);
    // A page of its own size (landscape) is fitted on its own.
    const mixed = pageLayout(
      3,
      (n) => (n === 2 ? { width: 800, height: 400 } : undefined),
      size,
      800,
    );
    expect(mixed.heights).toEqual([1000, 400, 1000]);
    expect(mixed.tops).toEqual([0, 1012, 1424]);
  });

  it('renders the pages in view and one each side, never more than six', () => {
    expect(visiblePages(layout, 2024, 900)).toEqual({ first: 2, last: 4, current: 3 });
    expect(visiblePages(layout, 0, 900)).toEqual({ first: 1, last: 2, current: 1 });
    expect(visiblePages(layout, layout.total - 900, 900)).toEqual({
      first: 9,
      last: 10,
      current: 10,
    });
    // A window 20 pages tall still holds six canvases.
    const tall = visiblePages(layout, 0, 20_000);
    expect(tall).toEqual({ first: 1, last: MAX_RENDERED_PAGES, current: 1 });
    expect(
      visiblePages(
        pageLayout(0, () => undefined, size, 800),
        0,
        900,
      ),
    ).toBeNull();
  });

  it('draws the box in CSS pixels from the page’s corner, kept inside the page', () => {
    expect(boxOnPage([50, 100, 250, 120], size, 2)).toEqual({
      left: 100,
      top: 200,
      width: 400,
      height: 40,
    });
    // Corners given the other way round, and a box running off the page, are held to it.
    expect(boxOnPage([250, 120, 50, 100], size, 2)).toEqual({
      left: 100,
      top: 200,
      width: 400,
      height: 40,
    });
    expect(boxOnPage([300, 480, 450, 520], size, 1)).toEqual({
      left: 300,
      top: 480,
      width: 100,
      height: 20,
    });
    expect(boxOnPage([500, 10, 600, 20], size, 1)).toBeNull();
  });

  it('opens with the box a third of the way down the view, never above its page', () => {
    expect(openingScroll(layout, 3, { top: 900, height: 40 }, 900)).toBe(2024 + 600);
    expect(openingScroll(layout, 3, { top: 200, height: 40 }, 900)).toBe(2024);
    expect(openingScroll(layout, 3, null, 900)).toBe(2024);
  });

  it('keeps the place shown when the layout changes (the viewer resized)', () => {
    // A third of the way down page 3 at 800 px wide...
    const at = anchorAt(layout, 2024 + 1000 / 3);
    expect(at?.page).toBe(3);
    expect(at?.within).toBeCloseTo(1 / 3, 10);
    // ...is a third of the way down page 3 at 400 px wide (pages 500 px tall).
    const narrow = pageLayout(10, () => undefined, size, 400);
    expect(scrollFor(narrow, at!)).toBeCloseTo(2 * 512 + 500 / 3, 10);
    expect(
      anchorAt(
        pageLayout(0, () => undefined, size, 800),
        0,
      ),
    ).toBeNull();
  });

  it('draws a canvas at the screen’s pixel ratio, at most 4 million pixels', () => {
    expect(canvasScale(size, 2, 1)).toBe(2);
    expect(canvasScale(size, 2, 2)).toBe(4);
    // 2 x 3 would be 2,400 x 3,000 px: lowered to 4 million pixels (scale √20).
    expect(canvasScale(size, 2, 3)).toBeCloseTo(4.4721, 4);
    expect(canvasScale(size, 1, 0.5)).toBe(1);
  });
});

describe('an uploaded PDF in the preview', () => {
  const openCited = (handlers: Parameters<typeof renderShell>[0]['handlers'] = {}) =>
    renderShell({
      path: `/preview/${SOURCE}/doc-1?pageNumber=3&boundingBox=${encodeURIComponent('[50,100,250,120]')}`,
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => ALL_DOC_FLAGS,
        'doc.get': () => uploadedPdf,
        'docFile.range': rangeOf,
        'docFile.original': () => new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
        'docFile.summaryStatus': () => noSummary,
        ...handlers,
      },
    });

  it('opens at the cited page with its box, rendering only the pages around it', async () => {
    const view = await openCited();
    const viewer = await screen.findByRole('region', { name: 'Nike annual report (PDF)' });
    expect(await screen.findByText('Page 3 of 10')).toBeTruthy();
    const box = await screen.findByTestId('pdf-highlight');
    expect(box.closest('[data-page-number]')?.getAttribute('data-page-number')).toBe('3');
    expect([box.style.left, box.style.top, box.style.width, box.style.height]).toEqual([
      '100px',
      '200px',
      '400px',
      '40px',
    ]);
    const pages = () =>
      [...viewer.querySelectorAll('[data-page-number]')].map((p) =>
        p.getAttribute('data-page-number'),
      );
    expect(pages()).toEqual(['2', '3', '4']);
    await waitFor(() => expect([...fakePdf.drawn].sort()).toEqual([2, 3, 4]));
    // Read by ranges: the first 64 KiB (which tell the size), then what pdf.js asks for; the
    // whole file never.
    expect(view.calls.filter((c) => c.op === 'docFile.range').map((c) => c.input)).toEqual([
      { source: SOURCE, deeplink: 'doc-1', start: 0, end: 65_535 },
      { source: SOURCE, deeplink: 'doc-1', start: 199_000, end: 199_999 },
    ]);
    expect(view.calls.some((c) => c.op === 'docFile.original')).toBe(false);
    expect(fakePdf.opened.map((o) => [o.size, o.initial.length, o.initial[300]])).toEqual([
      [200_000, 65_536, 49],
    ]);
    expect([fakePdf.tails[0]?.length, fakePdf.tails[0]?.[0]]).toEqual([1000, 199_000 % 251]);

    // Scrolled to the end: the last pages are drawn, the cited ones give their memory back.
    fireEvent.wheel(viewer);
    Object.defineProperty(viewer, 'scrollTop', { value: 9 * 1012, configurable: true });
    fireEvent.scroll(viewer);
    await waitFor(() => expect(pages()).toEqual(['9', '10']));
    expect(await screen.findByText('Page 10 of 10')).toBeTruthy();
    await waitFor(() => expect([...fakePdf.released].sort((a, b) => a - b)).toEqual([2, 3, 4]));
    expect(screen.queryByTestId('pdf-highlight')).toBeNull();
    // The passage's text stays, folded under the pages.
    expect(screen.getByText('Text of the document')).toBeTruthy();
  });

  it('shares a link, copies it and revokes it', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const view = await openCited({
      'docFile.share': () => ({ public_access_key: 'k1' }),
      'docFile.revokeShare': () => undefined,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const field = (await screen.findByLabelText(
      'Anyone with this link can open the document',
    )) as HTMLInputElement;
    const link = `${window.location.origin}/redirect/document?source=needldrive_u1&deeplink=doc-1&public_access_key=k1`;
    expect(field.value).toBe(link);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(link);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText('Link revoked: it no longer opens the document.')).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'docFile.revokeShare')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
    });
    expect(screen.queryByLabelText('Anyone with this link can open the document')).toBeNull();
  });

  it('says a share that brings no key failed, in the generic words', async () => {
    await openCited({
      'docFile.share': () => {
        throw apiError(502, 'no_public_access_key', 'Missing public access key');
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(
      await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :('),
    ).toBeTruthy();
  });

  it('downloads the original under its name, with the spec’s toasts', async () => {
    const made: Blob[] = [];
    const clicked: string[] = [];
    URL.createObjectURL = (blob: Blob) => {
      made.push(blob);
      return 'blob:file-1';
    };
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(`${this.download} ${this.getAttribute('href')}`);
    });
    await openCited();
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Downloaded Successfully')).toBeTruthy();
    expect(screen.getByText('Downloading')).toBeTruthy();
    expect(clicked).toEqual(['Nike annual report.pdf blob:file-1']);
    expect(made[0]?.type).toBe('application/pdf');
    click.mockRestore();
  });

  it('tells a failed download in 2 s words', async () => {
    await openCited({
      // The viewer's ranges are read; the download fails.
      'docFile.original': () => {
        throw apiError(404, 'not_found', 'no such document: doc-1');
      },
    });
    await screen.findByText('Page 3 of 10');
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download failed. Please try again.')).toBeTruthy();
  });

  it('deletes only after the confirmation', async () => {
    const view = await openCited({ 'docFile.delete': () => undefined });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Nike annual report?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.calls.some((c) => c.op === 'docFile.delete')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete document' }),
    );
    expect(await screen.findByText('Nike annual report is deleted')).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'docFile.delete')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
    });
  });

  it('summarises: Summarizing while the server writes it, then View Summary', async () => {
    let status: SummaryStatus = noSummary;
    const view = await openCited({
      'docFile.summaryStatus': () => status,
      'docFile.summarise': () => {
        status = { ...noSummary, status: 'PENDING' };
        return status;
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Summarize' }));
    expect(
      await screen.findByText(
        'Your summary is currently being generated, and we will notify you once it is complete.',
      ),
    ).toBeTruthy();
    const working = await screen.findByRole('button', { name: 'Summarizing' });
    expect((working as HTMLButtonElement).disabled).toBe(true);
    status = {
      deeplink: 'doc-1',
      status: 'SUCCESS',
      summary_pdf: '/api/save_summary/pdf/s1?key=abc',
      error: null,
    };
    view.emit({ type: 'changed', store: 'summaries', keys: ['doc-1'] });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    fireEvent.click(await screen.findByRole('button', { name: 'View Summary' }));
    expect(open).toHaveBeenCalledWith('/api/save_summary/pdf/s1?key=abc', '_blank');
    // No window: the pop-up was blocked.
    expect(await screen.findByText(/Block Pop-ups/)).toBeTruthy();
    open.mockRestore();
  });

  it('shows no action whose flag is off, and no viewer for another user’s feed document', async () => {
    await openCited({ 'flags.get': () => ({ ...FEED_FLAGS, doc_download: true }) });
    expect(await screen.findByRole('button', { name: 'Download' })).toBeTruthy();
    for (const name of ['Share', 'Delete', 'Summarize']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    cleanup();
    await openCited({ 'doc.get': () => ({ ...uploadedPdf, source: 'reuters' }) });
    expect(await screen.findByText(/NIKE, Inc. designs/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: /\(PDF\)/ })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Document actions' })).toBeNull();
  });
});

describe('a shared link', () => {
  const path = `/redirect/document?source=${SOURCE}&deeplink=doc-1&public_access_key=k1`;

  it('opens the PDF signed out, read with the public key', async () => {
    const view = await renderShell({
      path,
      session: SIGNED_OUT,
      handlers: {
        'docFile.shared': () => uploadedPdf,
        'docFile.range': rangeOf,
      },
    });
    expect(await screen.findByRole('heading', { name: 'Nike annual report' })).toBeTruthy();
    expect(await screen.findByText('Page 1 of 10')).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'docFile.shared')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
      public_access_key: 'k1',
    });
    expect(view.calls.find((c) => c.op === 'docFile.range')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
      public_access_key: 'k1',
      start: 0,
      end: 65_535,
    });
    expect(view.history.location.pathname).toBe('/redirect/document');
  });

  it('says so when the link was revoked', async () => {
    await renderShell({
      path,
      session: SIGNED_OUT,
      handlers: {
        'docFile.shared': () => {
          throw apiError(404, 'not_found', 'no such document: doc-1');
        },
      },
    });
    expect(
      await screen.findByText(
        'This link does not open a document: it was revoked by its owner, or it is not complete.',
      ),
    ).toBeTruthy();
  });
});
