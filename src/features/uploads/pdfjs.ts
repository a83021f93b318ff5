import type * as Pdfjs from 'pdfjs-dist';
import { PDF_RANGE_CHUNK } from './pdf-range';

/**
 * pdf.js (pdfjs-dist, pinned) behind the small interface the viewer uses, loaded on demand: the
 * library and its worker are a chunk of their own that only a PDF preview downloads. The worker
 * script comes from the build (Vite's `?url`), never from a CDN. The file is read by ranges
 * (openPdf): pdf.js asks for the parts a page needs, so a 300-page file's first page is drawn
 * without the rest being read.
 */

/** A rendering in progress (pdf.js's RenderTask). */
export type PdfRenderTask = { promise: Promise<void>; cancel(): void };

/** One page (pdf.js's PDFPageProxy, as much of it as the viewer uses). */
export type PdfPage = {
  getViewport(options: { scale: number }): { width: number; height: number };
  render(options: {
    canvas: HTMLCanvasElement;
    viewport: { width: number; height: number };
  }): PdfRenderTask;
  /** Frees what rendering kept for this page (fonts, images, operator lists). */
  cleanup(): void;
};

/** An open document (pdf.js's PDFDocumentProxy, as much of it as the viewer uses). */
export type PdfDocument = {
  numPages: number;
  getPage(pageNumber: number): Promise<PdfPage>;
  destroy(): Promise<void>;
};

/**
 * A PDF read by ranges: its size, its first bytes (read before opening) and a reader of the
 * bytes `begin` (inclusive) to `end` (exclusive), as pdf.js asks for them.
 */
export type PdfSource = {
  size: number;
  initial: Uint8Array;
  read(begin: number, end: number): Promise<Uint8Array>;
};

export type OpenPdf = (source: PdfSource) => Promise<PdfDocument>;

type Loaded = { pdfjs: typeof Pdfjs; worker: Pdfjs.PDFWorker };
let loading: Promise<Loaded> | null = null;

/**
 * pdf.js and ONE worker for every document the tab opens (a worker started per document would
 * parse its 1.2 MB script each time). Called when a viewer mounts, so the library loads while
 * the file is read; a failure is not kept (the next viewer tries again).
 */
export function preparePdf(): Promise<Loaded> {
  if (!loading) {
    loading = (async () => {
      const [pdfjs, script] = await Promise.all([
        import('pdfjs-dist'),
        import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
      ]);
      pdfjs.GlobalWorkerOptions.workerSrc = script.default;
      return { pdfjs, worker: new pdfjs.PDFWorker() };
    })();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * Opens a PDF with pdf.js, reading only the byte ranges it asks for (a PDFDataRangeTransport
 * over `source.read`; no automatic fetching of the rest, no stream of the whole file): the
 * cross-reference table at the end, then each page's objects as the page is drawn. A file whose
 * first bytes are all of it is handed over whole. A failed read fails the opening (pdf.js
 * itself would wait for the range forever). Destroying the document leaves the shared worker
 * running.
 */
export const openPdf: OpenPdf = async (source) => {
  const { pdfjs, worker } = await preparePdf();
  const options = { worker, isEvalSupported: false, disableAutoFetch: true, disableStream: true };
  if (source.initial.length >= source.size) {
    const task = pdfjs.getDocument({ ...options, data: source.initial });
    // pdf.js's own types are wider (PageViewport, RenderParameters' many options); the viewer
    // uses the subset above, which pdf.js's objects have.
    return (await task.promise) as unknown as PdfDocument;
  }
  const transport = new pdfjs.PDFDataRangeTransport(source.size, source.initial);
  let fail: (reason: unknown) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  transport.requestDataRange = (begin: number, end: number) => {
    source.read(begin, end).then(
      (bytes) => transport.onDataRange(begin, bytes),
      (reason: unknown) => fail(reason),
    );
  };
  const task = pdfjs.getDocument({
    ...options,
    range: transport,
    length: source.size,
    rangeChunkSize: PDF_RANGE_CHUNK,
  });
  try {
    return (await Promise.race([task.promise, failed])) as unknown as PdfDocument;
  } catch (reason) {
    void task.destroy();
    throw reason;
  }
};
