import { useParams, useRouterState } from '@tanstack/react-router';
import { goBack } from '../../shell/go-back';
import { PreviewPanel } from './preview-panel';

/**
 * /preview/{category}/{deeplink}: the full-screen document preview (002 §2), where the preview
 * overlay cannot show (tablet and smaller screens). The category segment is the document's
 * source key, the same one the overlay passes as overlay-source. `searchTerm` (a result opened
 * from a search) marks the term's words in the document.
 */
export function PreviewPage() {
  const params = useParams({ strict: false }) as { category?: string; deeplink?: string };
  const source = params.category ?? '';
  const deeplink = params.deeplink ?? '';
  const term = useRouterState({
    select: (s) => (s.location.search as Record<string, unknown>).searchTerm,
  });
  const searchTerm = typeof term === 'string' ? term : '';
  return (
    <section className="preview-page">
      <button type="button" className="button secondary small" onClick={() => goBack()}>
        Back
      </button>
      <PreviewPanel params={searchTerm ? { source, deeplink, searchTerm } : { source, deeplink }} />
    </section>
  );
}
