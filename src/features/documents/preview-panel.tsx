import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DocumentDetail } from '../../../contract/documents';
import { isMobile } from '../../lib/breakpoints';
import {
  assistantOverlayAllowed,
  overlaySearch,
  overlayVisible,
  withoutOverlayParams,
} from '../../lib/overlay';
import { formatPublished } from '../../lib/format';
import { userMessage } from '../../lib/user-message';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import { parseHighlightParam, parseViewerParams } from '../assistant';
import { clearMarks, markMatches, plainTextHtml, type PreviewHighlight } from '../search';
import { AddToNotebookButton } from '../notebooks';
import { DocumentTagControls } from '../tags';
import { DocumentActions, isUploadedDocument, PdfViewer, PDF_MIME_TYPE } from '../uploads';
import { goBack } from '../../shell/go-back';
import { cardFields, originalLink } from './card-rules';
import { PillTags } from './pill-tags';
import { PreviewNav } from './preview-nav';
import { sanitizeDocumentHtml } from './sanitize-html';
import { RetryAlert } from '../../shell/retry-alert';

/**
 * The preview overlay's contents (overlay-type=preview, 000 §2): the document from doc.get (the
 * mirror when it holds it, else the server), its HTML sanitised again in the page, its typed
 * fields and categories, "Open original" for an http(s) address only, and mark read/unread.
 * Opened from a search, it marks what matched: the result's spans when given (`highlight`),
 * else the words of the search term (`searchTerm`, as the /document viewer takes it). Opened
 * from an answer's citation, `params.highlight` (`start-end` spans of the document's plain text,
 * comma-separated) marks the cited sentence, and the PDF viewer's `pageNumber` and
 * `boundingBox` say where it is on its page (001 §2).
 *
 * Opening a document marks it read (when the user may mark documents read), through the same
 * optimistic write as the button. Opened from a feed or a search's results, Previous and Next
 * (and j/k) step through that list (preview-nav.tsx).
 */
export function PreviewPanel(props: {
  params: Record<string, string>;
  highlight?: PreviewHighlight;
  /**
   * Previous/next through the list it was opened from: in the overlay (the default), on the
   * full-screen preview ('page'), or none where the list itself steps (the full search page).
   */
  nav?: 'overlay' | 'page' | false;
}) {
  useSignals();
  const { client, state, product } = useShell();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const canAsk =
    overlayVisible(useViewportWidth()) &&
    assistantOverlayAllowed(pathname, { product, flags: state.$flags.value });
  const { source, deeplink, searchTerm, highlight: span, boundingBox, pageNumber } = props.params;
  const fromParams = useMemo<PreviewHighlight | undefined>(() => {
    const spans = parseHighlightParam(span);
    if (spans) return { spans, term: null };
    return searchTerm?.trim() ? { spans: null, term: searchTerm } : undefined;
  }, [span, searchTerm]);
  const highlight = props.highlight ?? fromParams;
  const viewer = parseViewerParams({ boundingBox, pageNumber });
  const [doc, setDoc] = useState<DocumentDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let alive = true;
    setDoc(null);
    setError(null);
    client.call('doc.get', { source, deeplink }).then(
      (answer) => {
        if (!alive) return;
        // Opening marks read, as in Feedly and Inoreader; a failed write puts it back.
        const mark =
          !answer.read &&
          state.$flags.peek().doc_mark_as_read === true &&
          state.$preferences.peek()?.open_marks_read !== false;
        setDoc(mark ? { ...answer, read: true } : answer);
        if (!mark) return;
        client
          .call('doc.setRead', { deeplinks: [answer.deeplink], status: 'read' })
          .catch((failure: unknown) => {
            if (alive) setDoc((was) => (was?.deeplink === answer.deeplink ? answer : was));
            showToast('error', userMessage(failure));
          });
      },
      (failure: unknown) => alive && setError(failure),
    );
    return () => {
      alive = false;
    };
  }, [client, state, source, deeplink, round]);

  // Marked in another tab (or from the card behind): show the same state here.
  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type !== 'changed' || event.store !== 'read_status') return;
        if (event.keys !== null && !event.keys.includes(deeplink)) return;
        void client.call('doc.readState', { deeplinks: [deeplink] }).then(
          (states) => {
            const read = states[deeplink];
            if (read !== undefined) setDoc((was) => (was ? { ...was, read } : was));
          },
          () => {},
        );
      }),
    [client, deeplink],
  );

  const nav = props.nav ?? 'overlay';
  // A deleted document leaves the screen: the overlay closes, the full preview goes back.
  const leave = () => {
    if (nav === 'page') goBack();
    else
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => withoutOverlayParams(prev),
      });
  };
  const stepper = (onToggleRead?: () => void) =>
    nav === false ? null : (
      <PreviewNav deeplink={deeplink} fullPage={nav === 'page'} onToggleRead={onToggleRead} />
    );
  if (error !== null) {
    return (
      <>
        {stepper()}
        <RetryAlert error={error} onRetry={() => setRound((n) => n + 1)} />
      </>
    );
  }
  if (doc === null) {
    return (
      <>
        {stepper()}
        <p className="muted" role="status">
          Loading the document…
        </p>
      </>
    );
  }

  const toggleRead = () => {
    const read = !doc.read;
    setDoc({ ...doc, read });
    client
      .call('doc.setRead', { deeplinks: [doc.deeplink], status: read ? 'read' : 'unread' })
      .catch((failure: unknown) => {
        setDoc((was) => (was ? { ...was, read: !read } : was));
        showToast('error', userMessage(failure));
      });
  };
  // Ask about this document: the assistant overlay takes the preview's place, scoped to it.
  const askAbout = canAsk
    ? () =>
        void navigate({
          to: '.',
          search: (prev: Record<string, unknown>) => ({
            ...withoutOverlayParams(prev),
            ...overlaySearch(`ask-${product}`, {
              preview_askneedl: doc.deeplink,
              ...(doc.title ? { preview_title: doc.title } : {}),
            }),
          }),
        })
    : undefined;
  const canMarkRead = state.$flags.value.doc_mark_as_read === true;
  return (
    <>
      {stepper(canMarkRead ? toggleRead : undefined)}
      <PreviewDocument
        doc={doc}
        highlight={highlight}
        page={viewer.pageNumber}
        box={viewer.boundingBox}
        onDeleted={leave}
        onAsk={askAbout}
        onToggleRead={canMarkRead ? toggleRead : undefined}
      />
    </>
  );
}

function PreviewDocument(props: {
  doc: DocumentDetail;
  highlight?: PreviewHighlight;
  /** The page of the cited passage (the PDF viewer's pageNumber), when the link gave one. */
  page: number | null;
  /** The cited passage's box on that page (the PDF viewer's boundingBox). */
  box: [number, number, number, number] | null;
  onDeleted: () => void;
  onToggleRead?: () => void;
  onAsk?: () => void;
}) {
  const { doc, highlight } = props;
  const { product } = useShell();
  const uploaded = isUploadedDocument(doc.source, product);
  // The user's own PDF shows its pages (the cited box drawn); its text stays below, folded.
  const pdf = uploaded && doc.mime_type === PDF_MIME_TYPE;
  const titleId = useId();
  const mobile = isMobile(useViewportWidth());
  const original = originalLink(doc.link);
  const fields = cardFields(doc);
  const sanitized = useMemo(() => sanitizeDocumentHtml(doc.content), [doc.content]);
  // Marks go into markup React does not manage: plain text becomes escaped paragraphs then.
  const html = sanitized.trim() || !highlight ? sanitized : plainTextHtml(doc.body);
  const body = useRef<HTMLDivElement>(null);

  // What the search matched, marked, and the first match scrolled into view.
  useEffect(() => {
    const element = body.current;
    if (!element || !highlight) return undefined;
    const marks = markMatches(element, doc.body, highlight);
    // A PDF's text is folded under its pages: the viewer shows where the passage is.
    if (!pdf) marks[0]?.scrollIntoView?.({ block: 'center' });
    return () => clearMarks(element);
  }, [html, doc.body, highlight, pdf]);

  // Images that fail to load are hidden (002 §5); 'error' does not bubble, so listen capturing.
  useEffect(() => {
    const element = body.current;
    if (!element) return undefined;
    const hide = (event: Event) => {
      if (event.target instanceof HTMLImageElement) event.target.hidden = true;
    };
    element.addEventListener('error', hide, true);
    return () => element.removeEventListener('error', hide, true);
  }, [html]);

  const text = html.trim() ? (
    <div ref={body} className="preview-body" dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <div ref={body} className="preview-body">
      {doc.body
        .split(/\n{2,}/)
        .filter((p) => p.trim())
        .map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
    </div>
  );
  return (
    <article className="preview-document" aria-labelledby={titleId}>
      <p className="card-meta">
        <span className="card-source">{doc.label}</span>
        <span aria-hidden="true"> · </span>
        <time dateTime={new Date(doc.unix * 1000).toISOString()}>
          {formatPublished(doc.unix, new Date())}
        </time>
      </p>
      <h3 id={titleId} className="preview-title">
        {doc.title.trim() || doc.label}
      </h3>
      {fields.length > 0 ? (
        <dl className="card-fields">
          {fields.map((field) => (
            <div key={field.label}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <PillTags tags={doc.categories} mobile={mobile} />
      <DocumentTagControls deeplink={doc.deeplink} source={doc.source} mobile={mobile} />
      <AddToNotebookButton
        title={doc.title.trim() || doc.label}
        href={`/preview/${encodeURIComponent(doc.source)}/${encodeURIComponent(doc.deeplink)}`}
        text={() => doc.body}
        within={() => body.current}
      />
      {props.page !== null && !pdf ? (
        <p className="muted">Cited passage on page {props.page}</p>
      ) : null}
      <div className="preview-actions">
        {original ? (
          <a
            className="button secondary small"
            href={original}
            target="_blank"
            rel="noopener noreferrer"
          >
            Open original
          </a>
        ) : null}
        {props.onAsk ? (
          <button type="button" className="button secondary small" onClick={props.onAsk}>
            Ask about this document
          </button>
        ) : null}
        {props.onToggleRead ? (
          <button type="button" className="button secondary small" onClick={props.onToggleRead}>
            {doc.read ? 'Mark as unread' : 'Mark as read'}
          </button>
        ) : null}
      </div>
      {uploaded ? (
        <DocumentActions
          doc={{
            source: doc.source,
            deeplink: doc.deeplink,
            title: doc.title.trim() || doc.label,
            mime_type: doc.mime_type,
          }}
          mobile={mobile}
          onDeleted={props.onDeleted}
          page={props.page}
        />
      ) : null}
      {pdf ? (
        <PdfViewer
          source={doc.source}
          deeplink={doc.deeplink}
          title={doc.title.trim() || doc.label}
          pageNumber={props.page}
          boundingBox={props.box}
        />
      ) : null}
      {pdf ? (
        <details className="preview-text">
          <summary>Text of the document</summary>
          {text}
        </details>
      ) : (
        text
      )}
    </article>
  );
}
