import { useSignals } from '@preact/signals-react/runtime';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import {
  contentShiftPercent,
  gateOverlay,
  overlayVisible,
  overlayWidthFor,
  parseOverlay,
} from '../lib/overlay';
import { isMobile } from '../lib/breakpoints';
import { pathSegments, routeHasNav } from '../lib/routes';
import { OverlayHost, useCloseOverlay } from '../overlay/overlay-host';
import { OfflineBanner } from '../shell/offline-banner';
import { useShell } from '../shell-context';
import { AssistantButton } from './assistant-button';
import { Breadcrumbs, PageHeading } from './page-heading';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';
import { useCrumbNames, useEntityName } from './use-entity-names';
import { useNavMachine } from './use-nav-machine';
import { useViewportWidth } from './use-viewport-width';

/**
 * The signed-in shell: top bar, side navigation (on routes that have it), breadcrumbs and page
 * header, the page, the overlay host and the floating assistant button.
 */
export function AppLayout() {
  useSignals();
  const { state, product } = useShell();
  const location = useRouterState({ select: (s) => s.location });
  const viewportWidth = useViewportWidth();
  const closeOverlay = useCloseOverlay();
  const hasNav = routeHasNav(location.pathname, product);
  // The feed's or source's own name heads its page (000 §2) once it is known.
  const entity = useEntityName(location.pathname);
  const crumbNames = useCrumbNames(location.pathname);
  // The search screens head themselves: their header follows the answer (a corrected query).
  const ownHeading = pathSegments(location.pathname)[0] === 'search';

  const parsed = parseOverlay(location.search as Record<string, unknown>, product);
  // The assistant panel where it may not open (flag off, notebooks) is no overlay at all.
  const overlay = gateOverlay(parsed, location.pathname, {
    product,
    flags: state.$flags.value,
  });
  const refused = parsed.status !== 'none' && overlay.status === 'none';
  useEffect(() => {
    if (refused) closeOverlay({ replace: true });
  }, [refused, closeOverlay]);
  const overlayShown = overlay.status !== 'none' && overlayVisible(viewportWidth);
  const overlayType = overlay.status === 'ok' ? overlay.type : null;
  const widthPercent = overlayType
    ? overlayWidthFor(overlayType, state.$overlayWidths.value[overlayType])
    : 0;

  const machine = useNavMachine({
    hasNav,
    viewportWidth,
    overlayOpen: overlayShown,
  });
  const navState = state.$navState.value;
  const navOpen = navState === 'open' || navState === 'opened';

  return (
    <div
      className="app-shell"
      data-nav={hasNav ? navState : 'none'}
      data-drawer={isMobile(viewportWidth) || undefined}
    >
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <TopBar
        navOpen={navOpen}
        onToggleNav={
          hasNav
            ? () => {
                machine.dispatch({ type: 'toggle', source: 'user' });
                const next = machine.state();
                state.rememberNavState(next === 'close' || next === 'closed' ? 'closed' : 'opened');
              }
            : undefined
        }
      />
      <OfflineBanner />
      <div className="app-body">
        {hasNav ? (
          <SideNav
            machine={machine}
            // A phone's navigation is a drawer over the page, never beside it (issue 18).
            drawer={isMobile(viewportWidth)}
          />
        ) : null}
        <main
          id="main-content"
          tabIndex={-1}
          className="app-main"
          style={
            overlayShown && overlayType
              ? { marginRight: `${contentShiftPercent(widthPercent)}vw` }
              : undefined
          }
        >
          <Breadcrumbs
            names={{ ...crumbNames, ...(entity ? { [entity.segment]: entity.name } : {}) }}
          />
          {ownHeading ? null : <PageHeading entityName={entity?.name} />}
          <Outlet />
        </main>
      </div>
      {overlay.status !== 'none' && overlayShown ? (
        <OverlayHost
          overlay={overlay}
          widthPercent={widthPercent}
          viewportWidth={viewportWidth}
          onClose={() => closeOverlay()}
        />
      ) : null}
      <AssistantButton viewportWidth={viewportWidth} />
    </div>
  );
}
