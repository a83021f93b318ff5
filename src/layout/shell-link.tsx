import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { keepOverlayParams } from '../lib/overlay';

/**
 * A link inside the signed-in app. It keeps the overlay- parameters of the page it leaves
 * (000 §2: links keep overlay-prefixed query parameters), and the router marks it as the current
 * page (aria-current) only on an exact path match: the router's default would mark every
 * ancestor of the current path too (Home on every page). It adds no class of its own; a caller
 * that shows a current item decides which one that is.
 */
export function ShellLink(props: {
  to: string;
  className?: string;
  title?: string;
  'aria-current'?: 'page';
  children: ReactNode;
}) {
  const { to, children, ...rest } = props;
  return (
    <Link
      {...rest}
      to={to}
      search={(prev: Record<string, unknown>) => keepOverlayParams(prev, {})}
      activeOptions={{ exact: true, includeSearch: false }}
      activeProps={{}}
    >
      {children}
    </Link>
  );
}
