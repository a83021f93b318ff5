import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { SearchRow } from '../../../contract/search';
import { isMobile } from '../../lib/breakpoints';
import { overlayVisible } from '../../lib/overlay';
import { useFillHeight } from '../../layout/use-fill-height';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { PreviewPanel, type CardLink } from '../documents';
import type { PreviewHighlight } from './mark-text';
import { SearchControls } from './search-controls';
import { SearchHeading } from './search-heading';
import { SearchResults } from './search-results';
import { useSearchPage } from './use-search-page';

/** Choosing another query forgets the result shown. */
const FORGET_SELECTION = { source: undefined, deeplink: undefined };

/**
 * /search/full (000 §2): the results with the chosen result's document beside them, its
 * matches marked (the result's own spans). The choice is in the address (`source`,
 * `deeplink`), so a link or a reload opens the same document; with none chosen the first result
 * opens. Where the screen is too narrow for both (tablet and smaller), the document opens over
 * the list, and closing it goes back to the list. The list and the document beside it reach the
 * window's bottom.
 */
export function SearchFullPage() {
  const page = useSearchPage();
  const panelId = useId();
  const width = useViewportWidth();
  const beside = overlayVisible(width);
  const { search, setQuery, searched } = page;
  const source = typeof search.source === 'string' ? search.source : '';
  const deeplink = typeof search.deeplink === 'string' ? search.deeplink : '';
  const chosen = source !== '' && deeplink !== '';
  const split = useRef<HTMLDivElement>(null);
  useFillHeight(split);

  const [rows, setRows] = useState<{ current?: SearchRow; first?: SearchRow }>({});
  const onCurrent = useCallback(
    (current: SearchRow | undefined, first: SearchRow | undefined) => setRows({ current, first }),
    [],
  );

  // Side by side, the first result opens while none is chosen.
  const first = rows.first;
  useEffect(() => {
    if (beside && !chosen && first) {
      setQuery({ source: first.source, deeplink: first.deeplink }, { replace: true });
    }
  }, [beside, chosen, first, setQuery]);

  const spans = rows.current?.deeplink === deeplink ? rows.current.highlight_indexes : null;
  const highlight = useMemo<PreviewHighlight | undefined>(
    () => (searched || spans ? { spans, term: searched || null } : undefined),
    [spans, searched],
  );

  const linkOf = (row: SearchRow): CardLink => ({
    to: '.',
    search: (prev) => ({ ...prev, source: row.source, deeplink: row.deeplink }),
  });

  const preview = chosen ? (
    <PreviewPanel params={{ source, deeplink }} highlight={highlight} nav={false} />
  ) : null;

  return (
    <section className="search-full">
      <SearchHeading page={page} />
      <SearchControls page={page} panelId={panelId} onQueryPatch={FORGET_SELECTION} />
      <div className="search-split" ref={split}>
        <div id={panelId} role="tabpanel" aria-label="Results" className="search-split-list">
          <SearchResults
            key={page.key}
            params={page.params}
            mobile={isMobile(width)}
            linkOf={linkOf}
            current={chosen ? deeplink : null}
            onSummary={page.onSummary}
            onCurrent={onCurrent}
          />
        </div>
        {beside ? (
          <section className="search-split-preview" aria-label="Document">
            {preview ?? <p className="muted">Choose a result to read it here.</p>}
          </section>
        ) : preview ? (
          <section className="search-preview-over" role="dialog" aria-label="Document">
            <button
              type="button"
              className="button secondary small"
              onClick={() => setQuery(FORGET_SELECTION)}
            >
              Back to results
            </button>
            {preview}
          </section>
        ) : null}
      </div>
    </section>
  );
}
