import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useDocumentTitle } from '../../layout/page-heading';
import { pageHeader } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { useSearchLocation, type SearchPageState } from './use-search-page';

/**
 * The search screens' page header (000 §2, 002 §2): "Search" (an app's name on its own search
 * page) without a query; "{query} in {location}" with one, the location being My Data,
 * {Product} Web, Group Data, or the feed's or app's name. When search corrected the spelling,
 * the header reads the corrected query and the sub-header the original, which searches it as
 * typed.
 */
export function SearchHeading(props: { page: SearchPageState }) {
  const { product, state } = useShell();
  const { page } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useSearchLocation(page.route, page.params);
  const header = pageHeader({
    pathname: page.pathname,
    product,
    query: page.searched,
    location,
    spellCorrectedFrom: page.corrected ? page.params.q : undefined,
    searchType: page.params.search_type ?? undefined,
  });
  const title =
    !page.searched && page.route.kind === 'source' && location ? location : header.title;
  useDocumentTitle(title, product);
  // Arriving from sign-in (search may be the landing page): screen readers start here.
  useEffect(() => {
    if (state.takeHeadingFocus()) heading.current?.focus();
  }, [state]);

  return (
    <div className="page-heading search-heading">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {header.subtitle ? (
        <p className="page-subtitle">
          Search instead for{' '}
          <Link
            className="original-query"
            to="."
            search={(prev: Record<string, unknown>) => ({ ...prev, spell_correct: 'false' })}
          >
            {header.subtitle}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
