import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { afterSignOutRoute } from './lib/landing';
import { isAuthPath } from './lib/routes';
import { variantFromPath } from './lib/variant';
import { createAppRouter, type AppRouter } from './router/create-app-router';
import { createLazyScreens } from './screens/lazy-screens';
import { WorkspaceProvider, type ShellServices } from './shell-context';
import { ShellErrorBoundary } from './shell/error-boundary';
import { createLazyPageLoader, type ReloadGuardStorage } from './shell/lazy-page';
import { SignInRequiredModal } from './shell/sign-in-required-modal';
import { ShellToaster, showToast } from './shell/toasts';
import { createShellState } from './state/shell-state';
import type { WorkspaceClient } from './workspace-client';

export type ShellBootDeps = {
  client: WorkspaceClient;
  product: string;
  history: RouterHistory;
  reload: () => void;
  storage: ReloadGuardStorage;
  adblockerInstalled?: () => boolean;
};

export type Shell = { services: ShellServices; router: AppRouter };

/**
 * Starts a tab: introduce it to the worker, learn the session, take the stored redirect on the
 * first signed-in load (000 §4), then build the router. Browser and UI tests share this path;
 * only the client and history differ.
 */
export async function startShell(deps: ShellBootDeps): Promise<Shell> {
  const { client, history } = deps;
  let router: AppRouter | null = null;
  const currentPath = () => router?.state.location.pathname ?? history.location.pathname;

  const state = createShellState({
    client,
    toast: showToast,
    isOnAuthPath: () => isAuthPath(currentPath()),
    goToSignedOutRoute: () => {
      void router?.navigate({ href: afterSignOutRoute(variantFromPath(currentPath())) });
    },
    reload: deps.reload,
    adblockerInstalled: deps.adblockerInstalled,
  });
  client.onEvent(state.handle);

  const { pathname } = history.location;
  const session = await client.start({ variant: variantFromPath(pathname), path: pathname });
  state.setSession(session);
  if (session.status === 'signed-in') {
    const { path } = await client.call('auth.takeRedirect', {});
    if (path && path !== history.location.href) history.replace(path);
    // Flags decide the landing route; a failure here shows on the page that needs them.
    await state.loadAccount().catch(() => {});
  }

  const services: ShellServices = { client, state, product: deps.product };
  const lazyPage = createLazyPageLoader({ storage: deps.storage, reload: deps.reload });
  router = createAppRouter({ context: services, history, screens: createLazyScreens(lazyPage) });

  // Every route change checks the session (000 §4). A lost session arrives as a logout event
  // to every tab, and a new one through sign-in or the worker's session event, so an answer here
  // only refreshes a session that is still signed in: one asked before a sign-out and answered
  // after it would otherwise sign the tab back in and bring the page back over sign-in.
  let lastPath = history.location.pathname;
  router.subscribe('onResolved', ({ toLocation }) => {
    if (toLocation.pathname === lastPath) return;
    lastPath = toLocation.pathname;
    void client.route(toLocation.pathname).then(
      (next) => {
        if (next.status === 'signed-in' && state.$session.peek()?.status === 'signed-in') {
          state.setSession(next);
        }
      },
      () => {},
    );
  });

  return { services, router };
}

/** The whole app for a started shell. */
export function ShellApp(props: { shell: Shell; reload?: () => void }) {
  return (
    <ShellErrorBoundary>
      <WorkspaceProvider services={props.shell.services}>
        <RouterProvider router={props.shell.router} />
        <SignInRequiredModal reload={props.reload} />
        <ShellToaster />
      </WorkspaceProvider>
    </ShellErrorBoundary>
  );
}
