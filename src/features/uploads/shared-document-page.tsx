import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { DocumentDetail } from '../../../contract/documents';
import { isApiErrorLike, userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { PDF_MIME_TYPE } from './document-texts';
import { PdfViewer } from './pdf-viewer';
import './document-viewer.css';

/** What a revoked, unknown or mistyped link shows. */
export const SHARE_REFUSED_TEXT =
  'This link does not open a document: it was revoked by its owner, or it is not complete.';

/**
 * /redirect/document?source&deeplink&public_access_key: a shared document (002 §7), signed in or
 * out. The document is read with its public access key (docFile.shared, a public op); a PDF
 * opens in the viewer, other types show their text. A revoked key is refused by the server
 * (404) and says so.
 */
export function SharedDocumentPage() {
  const { client } = useShell();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const read = (key: string) => (typeof search[key] === 'string' ? (search[key] as string) : '');
  const source = read('source');
  const deeplink = read('deeplink');
  const key = read('public_access_key');
  const [doc, setDoc] = useState<DocumentDetail | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let alive = true;
    setDoc(null);
    setError(null);
    if (!source || !deeplink || !key) {
      setError(new Error('incomplete link'));
      return undefined;
    }
    client.call('docFile.shared', { source, deeplink, public_access_key: key }).then(
      (found) => alive && setDoc(found),
      (failure: unknown) => alive && setError(failure),
    );
    return () => {
      alive = false;
    };
  }, [client, source, deeplink, key]);

  let body;
  if (error !== null) {
    const refused = !isApiErrorLike(error) || error.status === 404 || error.status === 400;
    body = (
      <p role="alert" className="pdf-viewer-error">
        {refused ? SHARE_REFUSED_TEXT : userMessage(error)}
      </p>
    );
  } else if (doc === null) {
    body = (
      <p className="muted" role="status">
        Loading the document…
      </p>
    );
  } else {
    const title = doc.title.trim() || doc.label;
    body = (
      <article aria-label={title}>
        <h1 className="preview-title">{title}</h1>
        {doc.mime_type === PDF_MIME_TYPE ? (
          <PdfViewer
            source={source}
            deeplink={deeplink}
            title={title}
            pageNumber={null}
            boundingBox={null}
            publicAccessKey={key}
          />
        ) : (
          <div className="preview-body">
            {doc.body
              .split(/\n{2,}/)
              .filter((p) => p.trim())
              .map((paragraph, i) => (
                <p key={i}>{paragraph}</p>
              ))}
          </div>
        )}
      </article>
    );
  }
  return <main className="shared-document">{body}</main>;
}
