import { useId } from 'react';
import { searchKey, type SearchRow } from '../../../contract/search';
import { isMobile } from '../../lib/breakpoints';
import { overlayVisible, withoutOverlayParams } from '../../lib/overlay';
import { routesFor } from '../../lib/routes';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { useShell } from '../../shell-context';
import { fullPreviewSearch, previewSearch, type CardLink } from '../documents';
import { FacetsPanel } from './facets-panel';
import { SearchControls } from './search-controls';
import { SearchHeading } from './search-heading';
import { SearchResults } from './search-results';
import { withoutFilter } from './search-view';
import { useSearchPage } from './use-search-page';

/**
 * /search, /search/{tab} and /search/{source} (002 §2): the header, the search box, tabs, sort
 * and date range, the filters, and the results, each opening in the preview overlay (the
 * full-screen preview where the overlay cannot show) with the searched words marked.
 */
export function SearchPage() {
  const { product } = useShell();
  const page = useSearchPage();
  const panelId = useId();
  const width = useViewportWidth();
  const overlay = overlayVisible(width);
  const { params, searched, setQuery } = page;
  const board = params.board_id ?? '';
  // Facets count what the results are for: the corrected query once spelling corrected it.
  const facetParams = withoutFilter(
    searched === params.q ? params : { ...params, q: searched, spell_correct: false },
  );

  const linkOf = (row: SearchRow): CardLink => {
    const term: Record<string, string> = searched ? { searchTerm: searched } : {};
    if (!overlay) {
      return {
        to: routesFor(product).preview(row.source, row.deeplink),
        search: { ...fullPreviewSearch(row, board), ...term },
      };
    }
    return {
      to: '.',
      search: (prev) => ({
        ...withoutOverlayParams(prev),
        ...previewSearch(row, board),
        ...(searched ? { 'overlay-searchTerm': searched } : {}),
      }),
    };
  };

  return (
    <section className="search-page">
      <SearchHeading page={page} />
      <SearchControls page={page} panelId={panelId} />
      <div className="search-body">
        <FacetsPanel
          params={facetParams}
          paramsKey={searchKey(facetParams)}
          tab={page.tab}
          tag={params.filter?.tags?.[0] ?? null}
          company={params.filter?.companies?.[0] ?? null}
          onTag={(tag) => setQuery({ tag: tag ?? undefined })}
          onCompany={(company) => setQuery({ company: company ?? undefined })}
        />
        <div id={panelId} role="tabpanel" aria-label="Results" className="search-main">
          <SearchResults
            key={page.key}
            params={params}
            mobile={isMobile(width)}
            linkOf={linkOf}
            onSummary={page.onSummary}
          />
        </div>
      </div>
    </section>
  );
}
