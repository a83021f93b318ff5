import { useRouterState } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { formatDate } from '../../lib/format';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { goBack } from '../../shell/go-back';
import { PreviewPanel } from '../documents';
import './document-viewer.css';

/**
 * The /document and /image viewers (000 §2, 002 §2 "Preview and viewers"): their query
 * parameters are JSON-encoded (`?deeplink="d1"&pageNumber=3&boundingBox=[72,90,540,140]`); a
 * value that is not JSON is read as the plain text it is. Both take original_filename,
 * mime_type, author_institution, unix, deeplink, access_key, category, source, link and
 * category_tab; /document adds fileType, searchTerm, boundingBox and pageNumber, /image adds
 * dimensions.
 *
 * /document shows the document in the preview (features/documents' PreviewPanel): an uploaded PDF
 * in the PDF viewer at `pageNumber` with `boundingBox` drawn, any other document's text with
 * `searchTerm` marked. /image shows the image at `link`, or an uploaded one's original file
 * (docFile.original), at its `dimensions`.
 */

/** One parameter, JSON-decoded when it is JSON. */
function decoded(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** A parameter as text (a JSON number or boolean written as text); '' when absent. */
const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value.trim()
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';

export type ViewerParams = {
  original_filename: string;
  mime_type: string;
  author_institution: string;
  unix: number | null;
  deeplink: string;
  access_key: string;
  category: string;
  source: string;
  link: string;
  category_tab: string;
  fileType: string;
  searchTerm: string;
  /** [x0, y0, x1, y1] in points, as the preview's boundingBox. */
  boundingBox: [number, number, number, number] | null;
  pageNumber: number | null;
  /** [width, height] in CSS pixels (an object {width, height} is read too). */
  dimensions: [number, number] | null;
};

/** The viewers' parameters from the address's query. */
export function readViewerParams(search: Record<string, unknown>): ViewerParams {
  const value = (key: string) => decoded(search[key]);
  const text = (key: string) => textOf(value(key));
  const box = value('boundingBox');
  const page = Number(value('pageNumber'));
  const unix = Number(value('unix'));
  const dims = value('dimensions');
  let dimensions: [number, number] | null = null;
  if (Array.isArray(dims) && dims.length === 2) dimensions = [Number(dims[0]), Number(dims[1])];
  else if (dims && typeof dims === 'object') {
    const d = dims as { width?: unknown; height?: unknown };
    dimensions = [Number(d.width), Number(d.height)];
  }
  if (dimensions && !dimensions.every((n) => Number.isFinite(n) && n > 0)) dimensions = null;
  return {
    original_filename: text('original_filename'),
    mime_type: text('mime_type'),
    author_institution: text('author_institution'),
    unix: textOf(value('unix')) && Number.isFinite(unix) && unix > 0 ? unix : null,
    deeplink: text('deeplink'),
    access_key: text('access_key'),
    category: text('category'),
    source: text('source'),
    link: text('link'),
    category_tab: text('category_tab'),
    fileType: text('fileType'),
    searchTerm: text('searchTerm'),
    boundingBox:
      Array.isArray(box) && box.length === 4 && box.every((n) => Number.isFinite(n))
        ? (box as [number, number, number, number])
        : null,
    pageNumber: Number.isInteger(page) && page >= 1 ? page : null,
    dimensions,
  };
}

/** What a viewer address without the document's source and deeplink (or image) shows. */
export const VIEWER_INCOMPLETE_TEXT = 'This link does not name a document to show.';

function useViewerParams(): ViewerParams {
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const key = JSON.stringify(search);
  return useMemo(() => readViewerParams(JSON.parse(key) as Record<string, unknown>), [key]);
}

/**
 * Back, the file's name and who published it when. The name is the heading of /image; /document's
 * preview has its own heading (the document's title), the name is a line above it.
 */
function ViewerHeader(props: { params: ViewerParams; fallback: string; heading: boolean }) {
  const { params } = props;
  const name = params.original_filename || props.fallback;
  const when = params.unix !== null ? formatDate(new Date(params.unix * 1000)) : null;
  const byline = [params.author_institution, when].filter(Boolean).join(' · ');
  return (
    <header className="viewer-header">
      <button type="button" className="button secondary small" onClick={() => goBack()}>
        Back
      </button>
      {props.heading ? (
        <h1 className="preview-title">{name}</h1>
      ) : params.original_filename ? (
        <p className="muted">{params.original_filename}</p>
      ) : null}
      {byline ? <p className="muted">{byline}</p> : null}
    </header>
  );
}

/** /document: the document in the preview, a PDF at its page with the cited box. */
export function DocumentViewerPage() {
  const params = useViewerParams();
  const panelParams = useMemo(() => {
    const out: Record<string, string> = { source: params.source, deeplink: params.deeplink };
    if (params.access_key) out.access_key = params.access_key;
    if (params.category_tab) out.category_tab = params.category_tab;
    if (params.searchTerm) out.searchTerm = params.searchTerm;
    if (params.pageNumber !== null) out.pageNumber = String(params.pageNumber);
    if (params.boundingBox) out.boundingBox = JSON.stringify(params.boundingBox);
    return out;
  }, [params]);
  return (
    <section className="preview-page document-viewer-page" aria-label="Document viewer">
      <ViewerHeader params={params} fallback="Document" heading={false} />
      {params.source && params.deeplink ? (
        <PreviewPanel params={panelParams} nav="page" />
      ) : (
        <p role="alert" className="pdf-viewer-error">
          {VIEWER_INCOMPLETE_TEXT}
        </p>
      )}
    </section>
  );
}

/** /image: the image at its link, or an uploaded image's own file, at its dimensions. */
export function ImageViewerPage() {
  const params = useViewerParams();
  const { client } = useShell();
  const linked = /^https?:\/\//i.test(params.link) ? params.link : '';
  const [fileUrl, setFileUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const fromFile = !linked && Boolean(params.source && params.deeplink);

  useEffect(() => {
    if (!fromFile) return undefined;
    let alive = true;
    let url: string | null = null;
    setFileUrl(null);
    setError(null);
    client.call('docFile.original', { source: params.source, deeplink: params.deeplink }).then(
      (blob) => {
        if (!alive) return;
        url = URL.createObjectURL(blob);
        setFileUrl(url);
      },
      (failure: unknown) => alive && setError(failure),
    );
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [client, fromFile, params.source, params.deeplink]);

  const src = linked || fileUrl;
  const title = params.original_filename || 'Image';
  let body;
  if (!linked && !fromFile) {
    body = (
      <p role="alert" className="pdf-viewer-error">
        {VIEWER_INCOMPLETE_TEXT}
      </p>
    );
  } else if (error !== null) {
    body = (
      <p role="alert" className="pdf-viewer-error">
        The image could not be shown: {userMessage(error)}
      </p>
    );
  } else if (!src) {
    body = (
      <p className="muted" role="status">
        Loading the image…
      </p>
    );
  } else {
    body = (
      <img
        className="image-viewer-image"
        src={src}
        alt={title}
        {...(params.dimensions
          ? { width: params.dimensions[0], height: params.dimensions[1] }
          : {})}
      />
    );
  }
  return (
    <section className="preview-page image-viewer-page" aria-label="Image viewer">
      <ViewerHeader params={params} fallback="Image" heading />
      {body}
    </section>
  );
}
