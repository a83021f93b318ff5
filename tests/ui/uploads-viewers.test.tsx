import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEED_FLAGS } from './feed-fixtures';
import { renderShell, setViewportWidth, SIGNED_IN } from './shell-fake-workspace';
import { DRIVE_SOURCE, fakePdf, noSummary, uploadedPdf } from './uploads-fixtures';

// The /document and /image viewers (000 §2; 002 §2: JSON-encoded query parameters). jsdom draws
// nothing: pdf.js is replaced by a document of ten pages 400 x 500 points (uploads-fixtures.ts).
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
const handlers = {
  'flags.get': () => FEED_FLAGS,
  'doc.get': () => uploadedPdf(),
  'docFile.range': ({ start, end }: { start: number; end: number }) => ({
    size: 1000,
    bytes: new Uint8Array(Math.min(end, 999) - start + 1),
  }),
  'docFile.summaryStatus': () => noSummary,
};

/** A viewer address with each parameter JSON-encoded, as 002 §2 writes them. */
const jsonQuery = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

describe('/document', () => {
  it('opens an uploaded PDF at the page with the box, from JSON-encoded parameters', async () => {
    const view = await renderShell({
      path: `/document?${jsonQuery({
        original_filename: 'nike-annual-report.pdf',
        mime_type: 'application/pdf',
        author_institution: 'NIKE, Inc.',
        unix: 1_700_000_000,
        deeplink: 'doc-1',
        access_key: 's-drive',
        category: 'rss_news',
        source: SOURCE,
        link: null,
        category_tab: 'documents',
        fileType: 'pdf',
        searchTerm: 'footwear',
        boundingBox: [50, 100, 250, 120],
        pageNumber: 3,
      })}`,
      session: SIGNED_IN,
      handlers,
    });
    expect(await screen.findByText('Page 3 of 10')).toBeTruthy();
    const box = await screen.findByTestId('pdf-highlight');
    expect(box.closest('[data-page-number]')?.getAttribute('data-page-number')).toBe('3');
    expect([box.style.left, box.style.top, box.style.width, box.style.height]).toEqual([
      '100px',
      '200px',
      '400px',
      '40px',
    ]);
    expect(screen.getByText('nike-annual-report.pdf')).toBeTruthy();
    expect(screen.getByText('NIKE, Inc. · 14 Nov 2023')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Nike annual report' })).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'doc.get')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
    });
    expect(screen.queryByText('Not available yet')).toBeNull();
    expect(view.history.location.pathname).toBe('/document');
  });

  it('reads plain (not JSON) values too', async () => {
    const view = await renderShell({
      path: `/document?source=${SOURCE}&deeplink=doc-1&pageNumber=2`,
      session: SIGNED_IN,
      handlers,
    });
    expect(await screen.findByText('Page 2 of 10')).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'doc.get')?.input).toEqual({
      source: SOURCE,
      deeplink: 'doc-1',
    });
  });

  it('says so when the address names no document', async () => {
    await renderShell({
      path: `/document?${jsonQuery({ original_filename: 'x.pdf' })}`,
      session: SIGNED_IN,
      handlers,
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This link does not name a document to show.',
    );
  });
});

describe('/image', () => {
  it('shows the image at its link, at its dimensions, with its name and publisher', async () => {
    const view = await renderShell({
      path: `/image?${jsonQuery({
        original_filename: 'store-front.png',
        mime_type: 'image/png',
        author_institution: 'NIKE, Inc.',
        unix: 1_700_000_000,
        deeplink: 'img-1',
        source: 'rss_news',
        link: 'https://images.example.com/store-front.png',
        category_tab: 'media',
        dimensions: [640, 480],
      })}`,
      session: SIGNED_IN,
      handlers,
    });
    const image = (await screen.findByRole('img', { name: 'store-front.png' })) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('https://images.example.com/store-front.png');
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['640', '480']);
    expect(screen.getByRole('heading', { name: 'store-front.png' })).toBeTruthy();
    expect(screen.getByText('NIKE, Inc. · 14 Nov 2023')).toBeTruthy();
    expect(view.calls.some((c) => c.op === 'docFile.original')).toBe(false);
  });

  it('shows an uploaded image from its own file', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:image-1';
    };
    URL.revokeObjectURL = () => {};
    const view = await renderShell({
      path: `/image?${jsonQuery({
        original_filename: 'chart.png',
        source: SOURCE,
        deeplink: 'img-2',
        dimensions: { width: 300, height: 200 },
      })}`,
      session: SIGNED_IN,
      handlers: {
        ...handlers,
        'docFile.original': () => new Blob(['png'], { type: 'image/png' }),
      },
    });
    const image = await screen.findByRole('img', { name: 'chart.png' });
    expect(image.getAttribute('src')).toBe('blob:image-1');
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['300', '200']);
    await waitFor(() => expect(created[0]?.type).toBe('image/png'));
    expect(view.calls.find((c) => c.op === 'docFile.original')?.input).toEqual({
      source: SOURCE,
      deeplink: 'img-2',
    });
  });
});
