import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { UnreadBadge } from '../features/notifications/unread-badge';
import { isMobile } from '../lib/breakpoints';
import { productLabel } from '../lib/product';
import { routesFor } from '../lib/routes';
import { useShell } from '../shell-context';
import { AccountMenu } from './account-menu';
import { useLeadsSomewhere } from './built-routes';
import { ShellLink } from './shell-link';
import { useViewportWidth } from './use-viewport-width';

/**
 * The bar above every signed-in page: navigation toggle, brand, sync status and the account's
 * links (Notifications, Settings, the account, Sign out). At phone widths those last four sit
 * in the account menu, so they stay reachable.
 */
export function TopBar(props: { navOpen: boolean; onToggleNav?: () => void }) {
  useSignals();
  const { state, product } = useShell();
  const viewportWidth = useViewportWidth();
  const [signingOut, setSigningOut] = useState(false);
  const session = state.$session.value;
  const user = session?.status === 'signed-in' ? session.user : null;
  const pending = state.$outboxPending.value;
  const r = routesFor(product);
  const leadsSomewhere = useLeadsSomewhere();

  const signOut = async () => {
    setSigningOut(true);
    try {
      await state.signOut();
    } finally {
      setSigningOut(false);
    }
  };

  const account = (
    <>
      <ShellLink to={r.notifications} className="top-link">
        Notifications
        <UnreadBadge />
      </ShellLink>
      {leadsSomewhere(r.settings.root) ? (
        <ShellLink to={r.settings.root} className="top-link">
          Settings
        </ShellLink>
      ) : null}
      {user ? (
        <span className="account" title={user.email}>
          {user.name}
        </span>
      ) : null}
      <button
        type="button"
        className="button secondary small"
        onClick={() => void signOut()}
        disabled={signingOut}
        aria-busy={signingOut || undefined}
      >
        {signingOut ? 'Signing out…' : 'Sign out'}
      </button>
    </>
  );

  return (
    <header className="top-bar">
      {props.onToggleNav ? (
        <button
          type="button"
          className="icon-button nav-toggle"
          aria-label={props.navOpen ? 'Close navigation' : 'Open navigation'}
          aria-expanded={props.navOpen}
          aria-controls="side-nav"
          onClick={props.onToggleNav}
        >
          ☰
        </button>
      ) : null}
      <ShellLink to="/" className="brand">
        {productLabel(product)}
      </ShellLink>
      <div className="top-bar-spacer" />
      {!state.$online.value ? (
        <span className="status-pill offline" role="status">
          Offline{pending > 0 ? ` · ${pending} change${pending === 1 ? '' : 's'} waiting` : ''}
        </span>
      ) : pending > 0 ? (
        <span className="status-pill" role="status">
          Saving {pending} change{pending === 1 ? '' : 's'}…
        </span>
      ) : null}
      {isMobile(viewportWidth) ? <AccountMenu>{account}</AccountMenu> : account}
    </header>
  );
}
