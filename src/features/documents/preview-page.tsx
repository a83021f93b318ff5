import { useParams, useRouterState } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { goBack } from '../../shell/go-back';
import { PreviewPanel } from './preview-panel';
import { readingKeyOf } from './reading-keys';
import { noteShown } from './reading-list';

/** Query parameters the panel reads. */
const PASSED = ['searchTerm', 'highlight', 'pageNumber', 'boundingBox'] as const;

/**
 * /preview/{category}/{deeplink}: the full-screen document preview (002 §2), where the preview
 * overlay cannot show (tablet and smaller screens). The category segment is the document's
 * source key, the same one the overlay passes as overlay-source. `searchTerm` (a result opened
 * from a search) marks the term's words in the document; `highlight` (a citation or an
 * assistant search result) marks that span, with the PDF viewer's `pageNumber` and
 * `boundingBox`. Escape goes back, as it closes the overlay on wider screens (the `?` sheet's
 * "Close the preview"); the steps of j/k replace the entry, so back is the list they came from.
 */
export function PreviewPage() {
  const route = useParams({ strict: false }) as { category?: string; deeplink?: string };
  const source = route.category ?? '';
  const deeplink = route.deeplink ?? '';
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const extra: Record<string, string> = {};
  for (const key of PASSED) {
    const value = search[key];
    if (typeof value === 'string' && value) extra[key] = value;
  }
  const key = JSON.stringify(extra);
  // The same params object while the query says the same (the panel's effects key on it).
  const params = useMemo(
    () => ({ source, deeplink, ...(JSON.parse(key) as Record<string, string>) }),
    [source, deeplink, key],
  );
  // Back in the list, the card of the document read last is the selected one.
  useEffect(() => noteShown(deeplink), [deeplink]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (readingKeyOf(event, false) !== 'close') return;
      event.preventDefault();
      goBack();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section className="preview-page">
      <button type="button" className="button secondary small" onClick={() => goBack()}>
        Back
      </button>
      <PreviewPanel params={params} nav="page" />
    </section>
  );
}
