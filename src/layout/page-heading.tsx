import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { productLabel } from '../lib/product';
import { breadcrumbs } from '../lib/breadcrumbs';
import { pageHeader } from '../lib/routes';
import { useShell } from '../shell-context';
import { ShellLink } from './shell-link';

/**
 * Breadcrumbs (000 §2): Home first, one per segment, the last bold and not a link. Only that
 * last crumb is the current page; the links are its ancestors and carry no aria-current.
 */
export function Breadcrumbs(props: { names?: Record<string, string> }) {
  const { product } = useShell();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const crumbs = breadcrumbs(pathname, { product, names: props.names });
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={`${i}-${crumb.label}`}>
            {crumb.href === null ? (
              <strong aria-current="page">{crumb.label}</strong>
            ) : (
              <ShellLink to={crumb.href}>{crumb.label}</ShellLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The page header (000 §2): the page's title, or "{query} in {location}" while searching. */
export function PageHeading(props: { entityName?: string }) {
  const { product, state } = useShell();
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useRouterState({ select: (s) => s.location });
  const search = location.search as Record<string, unknown>;
  const text = (key: string) => (typeof search[key] === 'string' ? search[key] : undefined);
  const header = pageHeader({
    pathname: location.pathname,
    product,
    query: text('search') ?? text('q'),
    searchType: text('search_type'),
    entityName: props.entityName,
  });
  useDocumentTitle(header.title, product);
  // Arriving from sign-in: screen readers start at the page's heading, not at the body.
  useEffect(() => {
    if (state.takeHeadingFocus()) heading.current?.focus();
  }, [state]);
  return (
    <div className="page-heading">
      <h1 ref={heading} tabIndex={-1}>
        {header.title}
      </h1>
      {header.subtitle ? (
        <p className="page-subtitle">
          Searched instead for <span className="original-query">{header.subtitle}</span>
        </p>
      ) : null}
    </div>
  );
}

/** The tab's title follows the page header. */
export function useDocumentTitle(title: string, product: string) {
  useEffect(() => {
    document.title = `${title} · ${productLabel(product)}`;
  }, [title, product]);
}
