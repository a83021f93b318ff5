import type * as Pdfjs from 'pdfjs-dist';

/**
 * pdf.js (pdfjs-dist, pinned) behind the small interface the viewer uses, loaded on demand: the
 * library and its worker are a chunk of their own that only a PDF preview downloads. The worker
 * script comes from the build (Vite's `?url`), never from a CDN. The bytes are handed over once
 * (transferred to pdf.js's worker, not copied); pdf.js parses pages as they are asked for.
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

export type OpenPdf = (file: Blob) => Promise<PdfDocument>;

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

/** Opens a PDF with pdf.js (destroying the document leaves the shared worker running). */
export const openPdf: OpenPdf = async (file) => {
  const [{ pdfjs, worker }, bytes] = await Promise.all([preparePdf(), file.arrayBuffer()]);
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), worker, isEvalSupported: false });
  // pdf.js's own types are wider (PageViewport, RenderParameters' many options); the viewer
  // uses the subset above, which pdf.js's objects have.
  return (await task.promise) as unknown as PdfDocument;
};
