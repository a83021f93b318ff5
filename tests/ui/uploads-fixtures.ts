import type { DocumentDetail } from '../../contract/documents';
import type { SummaryStatus } from '../../contract/extract';
import type { PdfDocument, PdfSource } from '../../src/features/uploads/pdfjs';

/** The signed-in user's drive (DEMO_USER u1), where uploaded files live. */
export const DRIVE_SOURCE = 'needldrive_u1';

/** An uploaded PDF `doc-1` in the drive, as `doc.get` answers it. */
export const uploadedPdf = (
  title = 'Nike annual report',
  text = 'NIKE, Inc. designs, develops and markets athletic footwear.',
): DocumentDetail => ({
  doc_id: 'doc-1',
  deeplink: 'doc-1',
  source: DRIVE_SOURCE,
  source_id: 's-drive',
  label: 'My drive',
  category: 'rss_news',
  category_tab: 'documents',
  market: null,
  unix: 1_700_000_000,
  title,
  link: null,
  plain_text: text,
  thumbnail_location: null,
  mime_type: 'application/pdf',
  company_name: null,
  security_code: null,
  security_id: null,
  secondary_category: null,
  categories: [],
  access_key: 's-drive',
  seq: 1,
  content: '',
  body: text,
  read: true,
});

/** `doc-1` has never been summarised. */
export const noSummary: SummaryStatus = {
  deeplink: 'doc-1',
  status: null,
  summary_pdf: null,
  error: null,
};

/**
 * What the stand-in pdf.js opened, drew and gave back. jsdom draws nothing, so a test file that
 * shows a PDF replaces src/features/uploads/pdfjs with `fakePdfjs`:
 *
 *   vi.mock('../../src/features/uploads/pdfjs', async () => (await import('./uploads-fixtures')).fakePdfjs);
 *
 * and calls `fakePdf.reset(...)` before each test (the document's page count and page size).
 */
export const fakePdf = {
  pages: 10,
  size: { width: 400, height: 500 },
  /** Pages drawn, in order. */
  drawn: [] as number[],
  /** Pages whose memory was given back. */
  released: [] as number[],
  /** The sources opened. */
  opened: [] as PdfSource[],
  /** Opening a file larger than its first chunk reads its last 1,000 bytes, as pdf.js reads the cross-reference table. */
  tails: [] as Uint8Array[],
  reset(pages = 10, size = { width: 400, height: 500 }) {
    fakePdf.pages = pages;
    fakePdf.size = size;
    fakePdf.drawn.length = 0;
    fakePdf.released.length = 0;
    fakePdf.opened.length = 0;
    fakePdf.tails.length = 0;
  },
};

/** src/features/uploads/pdfjs as a document of `fakePdf.pages` pages of `fakePdf.size` points. */
export const fakePdfjs = {
  preparePdf: async () => {},
  openPdf: async (source: PdfSource): Promise<PdfDocument> => {
    fakePdf.opened.push(source);
    if (source.size > source.initial.length) {
      fakePdf.tails.push(await source.read(source.size - 1000, source.size));
    }
    const { width, height } = fakePdf.size;
    return {
      numPages: fakePdf.pages,
      getPage: async (n: number) => ({
        getViewport: ({ scale }: { scale: number }) => ({
          width: width * scale,
          height: height * scale,
        }),
        render: () => {
          fakePdf.drawn.push(n);
          return { promise: Promise.resolve(), cancel: () => {} };
        },
        cleanup: () => void fakePdf.released.push(n),
      }),
      destroy: async () => {},
    };
  },
};
