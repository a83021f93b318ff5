import { Link, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ShellLink } from '../layout/shell-link';
import { pageHeader } from '../lib/routes';
import { useShell } from '../shell-context';

/** The in-shell statement that a screen is not here yet, with a way back to the start page. */
function NotAvailableSection(props: { children: ReactNode }) {
  return (
    <section className="not-available" role="status" aria-labelledby="not-available-title">
      <h2 id="not-available-title">Not available yet</h2>
      <p>{props.children}</p>
      <ShellLink to="/" className="button secondary">
        Go to my start page
      </ShellLink>
    </section>
  );
}

/**
 * Screens that later issues build: a clear statement inside the full shell (navigation, header,
 * breadcrumbs come from the layout), never a blank page.
 */
export function NotAvailablePage() {
  const { product } = useShell();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { title } = pageHeader({ pathname, product });
  return (
    <NotAvailableSection>
      {title} is not available yet. This part of the workspace arrives in a later release; the rest
      of the workspace keeps working in the meantime.
    </NotAvailableSection>
  );
}

/** The authenticated catch-all (000 §2): the main app around a path that has no screen. */
export function CatchAllPage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <NotAvailableSection>
      There is no screen at <code>{pathname}</code> in this release.
    </NotAvailableSection>
  );
}

/** Public routes (OAuth, redirects) that later issues build, outside the signed-in shell. */
export function PublicNotAvailablePage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <main className="auth-page">
      <div className="auth-card not-available" role="status">
        <h1>Not available yet</h1>
        <p>
          <code>{pathname}</code> is not available yet in this release.
        </p>
        <Link to="/auth/signin" className="button primary block">
          Go to sign in
        </Link>
      </div>
    </main>
  );
}
