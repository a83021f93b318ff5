import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import {
  anchorAt,
  boxOnPage,
  canvasScale,
  openingScroll,
  pageLayout,
  pageTop,
  scrollFor,
  visiblePages,
  type ScrollAnchor,
  type Box,
  type PageSize,
} from './pdf-layout';
import { PDF_RANGE_CHUNK } from './pdf-range';
import { openPdf as openWithPdfjs, preparePdf, type OpenPdf, type PdfDocument } from './pdfjs';
import './document-viewer.css';

/** The viewer's size before it is measured (and in jsdom, which lays nothing out). */
const DEFAULT_WIDTH = 800;
const DEFAULT_HEIGHT = 900;

type Loaded = { doc: PdfDocument; first: PageSize };

/**
 * The PDF viewer (issue 20 item 4; 001 §2): an uploaded PDF's pages fitted to the width, one
 * under the other, opening at `pageNumber` with the cited `boundingBox` drawn over the page.
 * The file is read by ranges through the worker (docFile.range, with `publicAccessKey` signed
 * out): its first 64 KiB, then the parts pdf.js asks for (the cross-reference table, the shown
 * pages' objects), never the whole file. Only the pages in view (and one each side) are
 * rendered, each into its own canvas, and a page scrolled away gives its canvas and pdf.js's page resources back, so a 300-page document
 * holds a few canvases at a time. `open` is pdf.js (injected by tests: jsdom draws nothing).
 */
export function PdfViewer(props: {
  source: string;
  deeplink: string;
  title: string;
  pageNumber: number | null;
  boundingBox: Box | null;
  publicAccessKey?: string;
  open?: OpenPdf;
}) {
  const { client } = useShell();
  const { source, deeplink, publicAccessKey } = props;
  const open = props.open ?? openWithPdfjs;
  const cited = props.pageNumber ?? 1;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let alive = true;
    let doc: PdfDocument | null = null;
    setLoaded(null);
    setError(null);
    // pdf.js loads while the file is read (its failure shows when the document is opened).
    if (!props.open) preparePdf().catch(() => {});
    void (async () => {
      try {
        const ref = {
          source,
          deeplink,
          ...(publicAccessKey ? { public_access_key: publicAccessKey } : {}),
        };
        // The file's first chunk tells its size; pdf.js then asks for the ranges it needs.
        const first = await client.call('docFile.range', {
          ...ref,
          start: 0,
          end: PDF_RANGE_CHUNK - 1,
        });
        if (!alive) return;
        doc = await open({
          size: first.size,
          initial: first.bytes,
          read: async (begin, end) =>
            (await client.call('docFile.range', { ...ref, start: begin, end: end - 1 })).bytes,
        });
        if (!alive) {
          void doc.destroy();
          return;
        }
        // The cited page is read first: its size stands for the pages not read yet.
        const page = await doc.getPage(Math.min(Math.max(cited, 1), doc.numPages));
        const { width, height } = page.getViewport({ scale: 1 });
        if (alive) setLoaded({ doc, first: { width, height } });
      } catch (failure) {
        if (alive) setError(failure);
      }
    })();
    return () => {
      alive = false;
      void doc?.destroy();
    };
    // `cited` only chooses the page measured first: a new citation scrolls, it does not reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, source, deeplink, publicAccessKey, open]);

  if (error !== null) {
    return (
      <p className="pdf-viewer-error" role="alert">
        The PDF could not be shown: {userMessage(error)}
      </p>
    );
  }
  if (loaded === null) {
    return (
      <p className="muted" role="status">
        Loading the PDF…
      </p>
    );
  }
  return (
    <PdfPages
      doc={loaded.doc}
      first={loaded.first}
      title={props.title}
      page={Math.min(Math.max(cited, 1), loaded.doc.numPages)}
      box={props.boundingBox}
    />
  );
}

function PdfPages(props: {
  doc: PdfDocument;
  first: PageSize;
  title: string;
  page: number;
  box: Box | null;
}) {
  const { doc, first, page: cited, box } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [sizes, setSizes] = useState<ReadonlyMap<number, PageSize>>(
    () => new Map([[cited, first]]),
  );
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const [viewHeight, setViewHeight] = useState(DEFAULT_HEIGHT);
  const [scrollTop, setScrollTop] = useState(0);
  // The cited page is drawn first: the pages beside it wait for it (pdf.js's one worker would
  // otherwise share its time between them while the reader waits for the cited one).
  const [drawnPages, setDrawnPages] = useState<ReadonlySet<number>>(() => new Set());
  const citedDrawn = drawnPages.has(cited);
  const onDrawn = useCallback(
    (n: number) => setDrawnPages((was) => (was.has(n) ? was : new Set(was).add(n))),
    [],
  );
  const opened = useRef<string | null>(null);
  // The place shown, kept across layout changes (the overlay sliding open or resized, a page's
  // real size read): the cited page stays in view until the reader scrolls.
  const anchor = useRef<ScrollAnchor | null>(null);
  // Scroll events the viewer's own positioning causes (or a clamp while the overlay is still
  // opening) must not move the anchor: only the reader's own moves do.
  const readerMoved = useRef(false);
  const readerMoves = () => {
    readerMoved.current = true;
  };

  // The viewer's size, and again whenever it changes (the overlay resized, a phone turned).
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const measure = () => {
      if (element.clientWidth > 0) setWidth(element.clientWidth);
      if (element.clientHeight > 0) setViewHeight(element.clientHeight);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const layout = useMemo(
    () => pageLayout(doc.numPages, (n) => sizes.get(n), first, width),
    [doc.numPages, sizes, first, width],
  );
  const citedSize = sizes.get(cited) ?? first;
  const citedBox = box ? boxOnPage(box, citedSize, layout.scales[cited - 1]) : null;

  // Open at the cited page with its box in view; again when another citation is opened. On
  // any other layout change, the place shown stays.
  const target = `${cited}:${box?.join(',') ?? ''}`;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (opened.current !== target) {
      opened.current = target;
      readerMoved.current = false;
      anchor.current = anchorAt(layout, openingScroll(layout, cited, citedBox, viewHeight));
    }
    const top = anchor.current ? scrollFor(layout, anchor.current) : 0;
    if (Math.abs(element.scrollTop - top) > 1) element.scrollTop = top;
    setScrollTop(top);
  }, [target, layout, cited, citedBox, viewHeight]);

  const frame = useRef<number | null>(null);
  const onScroll = () => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const element = scroller.current;
      if (!element) return;
      if (readerMoved.current) anchor.current = anchorAt(layout, element.scrollTop);
      setScrollTop(element.scrollTop);
    });
  };
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const onSize = useCallback((n: number, size: PageSize) => {
    setSizes((was) => {
      const known = was.get(n);
      if (known && known.width === size.width && known.height === size.height) return was;
      return new Map(was).set(n, size);
    });
  }, []);

  const range = visiblePages(layout, scrollTop, viewHeight);
  const shown: number[] = [];
  if (range) for (let n = range.first; n <= range.last; n++) shown.push(n);
  const goTo = (n: number) => {
    const element = scroller.current;
    if (!element) return;
    const top = n === cited ? openingScroll(layout, n, citedBox, viewHeight) : pageTop(layout, n);
    anchor.current = anchorAt(layout, top);
    readerMoved.current = false;
    element.scrollTop = top;
    setScrollTop(top);
  };

  return (
    <div className="pdf-viewer">
      <div className="pdf-toolbar">
        <span role="status" aria-live="polite">
          Page {range?.current ?? cited} of {doc.numPages}
        </span>
        {box ? (
          <button type="button" className="button secondary small" onClick={() => goTo(cited)}>
            Cited passage (page {cited})
          </button>
        ) : null}
      </div>
      <div
        ref={scroller}
        className="pdf-scroll"
        role="region"
        aria-label={`${props.title} (PDF)`}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={readerMoves}
        onPointerDown={readerMoves}
        onTouchStart={readerMoves}
        onKeyDown={readerMoves}
      >
        <div className="pdf-pages" style={{ height: layout.total }}>
          {shown.map((n) => (
            <PdfPageView
              key={n}
              doc={doc}
              page={n}
              top={layout.tops[n - 1]}
              height={layout.heights[n - 1]}
              scale={layout.scales[n - 1]}
              onSize={onSize}
              onDrawn={onDrawn}
              draw={citedDrawn || n === cited || !shown.includes(cited)}
              box={n === cited ? citedBox : null}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

function PdfPageView(props: {
  doc: PdfDocument;
  page: number;
  top: number;
  height: number;
  /** CSS px per point. */
  scale: number;
  onSize: (page: number, size: PageSize) => void;
  onDrawn: (page: number) => void;
  /** False while the page must wait (the cited page is drawn first). */
  draw: boolean;
  box: { left: number; top: number; width: number; height: number } | null;
}) {
  const { doc, page: n, scale, onSize, onDrawn, draw } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const [rendered, setRendered] = useState(false);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !draw) return undefined;
    let alive = true;
    let cancel: (() => void) | null = null;
    let release: (() => void) | null = null;
    setRendered(false);
    void (async () => {
      try {
        const page = await doc.getPage(n);
        release = () => page.cleanup();
        if (!alive) return;
        const size = page.getViewport({ scale: 1 });
        onSize(n, { width: size.width, height: size.height });
        const pixelRatio = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
        const viewport = page.getViewport({ scale: canvasScale(size, scale, pixelRatio) });
        element.width = Math.floor(viewport.width);
        element.height = Math.floor(viewport.height);
        const task = page.render({ canvas: element, viewport });
        cancel = () => task.cancel();
        await task.promise;
        cancel = null;
        if (alive) {
          setRendered(true);
          onDrawn(n);
        }
      } catch {
        // Cancelled (scrolled away) or a page pdf.js cannot draw: the page stays blank.
      }
    })();
    return () => {
      alive = false;
      cancel?.();
      release?.();
      // The canvas's pixels go now, not when the element is collected.
      element.width = 0;
      element.height = 0;
    };
  }, [doc, n, scale, onSize, onDrawn, draw]);

  return (
    <div
      className="pdf-page"
      data-page-number={n}
      data-rendered={rendered || undefined}
      aria-label={`Page ${n}`}
      style={{ top: props.top, height: props.height }}
    >
      <canvas ref={canvas} aria-hidden="true" />
      {props.box ? (
        <div
          className="pdf-highlight"
          data-testid="pdf-highlight"
          aria-label="Cited passage"
          style={{
            left: props.box.left,
            top: props.box.top,
            width: props.box.width,
            height: props.box.height,
          }}
        />
      ) : null}
    </div>
  );
}
