import {
  Outlet,
  createRootRouteWithContext,
  createRoute,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { afterSignInRoute, afterSignOutRoute } from '../lib/landing';
import { keepOverlayParams } from '../lib/overlay';
import { isAuthPath, routesFor } from '../lib/routes';
import { variantFromPath } from '../lib/variant';
import { AppLayout } from '../layout/app-layout';
import { RouteNotFound, RouterError } from '../screens/error-screen';
import {
  CatchAllPage,
  NotAvailablePage,
  PublicNotAvailablePage,
} from '../screens/not-available-page';
import type { ShellServices } from '../shell-context';
import {
  NOTEBOOK_PATTERNS,
  PREVIEW_PATTERN,
  notePreviewPattern,
  SEARCH_SUB_PATTERN,
  feedPatterns,
  placeholderPatterns,
} from './route-patterns';
import { ResetPasswordSearch, stringifySearch, validateAppSearch } from './search';

export type RouterContext = ShellServices;

/** Lazily loaded screens (each reloads the page once if its module fails to load). */
type Screen = () => ReactElement;
export type LazyScreens = {
  signIn: Screen;
  signUp: Screen;
  forgotPassword: Screen;
  resetPassword: Screen;
  notifications: Screen;
  customFeed: Screen;
  feedManager: Screen;
  feed: Screen;
  connectRss: Screen;
  connectWebsite: Screen;
  feedSettings: Screen;
  preview: Screen;
  search: Screen;
  searchFull: Screen;
  assistantFull: Screen;
  assistantHistory: Screen;
  bookmarks: Screen;
  tags: Screen;
  settings: Screen;
  userSettings: Screen;
  tagsManager: Screen;
  contacts: Screen;
  contact: Screen;
  notebooks: Screen;
  notebook: Screen;
  notePreview: Screen;
  sharedDocument: Screen;
  documentViewer: Screen;
  imageViewer: Screen;
};

/** The signed-in screens, each with the paths that show it. */
function appScreens(product: string, screens: LazyScreens): Array<readonly [string, Screen]> {
  const r = routesFor(product);
  const each = (paths: readonly string[], screen: Screen) =>
    paths.map((path) => [path, screen] as const);
  return [
    [r.notifications, screens.notifications],
    [r.customFeed, screens.customFeed],
    [r.settings.feedsRoot, screens.feedManager],
    ...each(feedPatterns(product), screens.feed),
    [r.connect.rss, screens.connectRss],
    ...each([r.connect.website, r.connect.websiteFollowed], screens.connectWebsite),
    [r.settings.feeds, screens.feedSettings],
    [PREVIEW_PATTERN, screens.preview],
    ...each([r.search.root, SEARCH_SUB_PATTERN], screens.search),
    [r.search.full, screens.searchFull],
    ...each([r.assistant.base, r.assistant.full], screens.assistantFull),
    [r.assistant.history, screens.assistantHistory],
    [r.needlbox.bookmarks, screens.bookmarks],
    [r.needlbox.tags, screens.tags],
    // Settings: the hub, user settings, the Tags Manager, contacts (features/settings, tags, people).
    [r.settings.root, screens.settings],
    [r.settings.userSettings, screens.userSettings],
    [r.settings.tags, screens.tagsManager],
    [r.settings.contacts, screens.contacts],
    ['/settings/contacts/$id', screens.contact],
    [r.notebooks, screens.notebooks],
    ...each(NOTEBOOK_PATTERNS, screens.notebook),
    [notePreviewPattern(product), screens.notePreview],
    // The /document and /image viewers (features/uploads).
    [r.document, screens.documentViewer],
    [r.image, screens.imageViewer],
  ];
}

/** Not signed in: remember where the visitor was going and send them to sign-in (000 §4). */
async function requireSession(context: RouterContext, href: string, pathname: string) {
  if (context.state.$session.peek()?.status === 'signed-in') {
    await context.state.loadAccount();
    return;
  }
  if (!isAuthPath(pathname) && pathname !== '/') {
    await context.client.call('auth.storeRedirect', { path: href }).catch(() => {});
  }
  throw redirect({ href: afterSignOutRoute(variantFromPath(pathname)), replace: true });
}

export function createRouteTree(product: string, screens: LazyScreens): AnyRoute {
  const r = routesFor(product);
  const rootRoute = createRootRouteWithContext<RouterContext>()({
    validateSearch: validateAppSearch,
    component: Outlet,
    errorComponent: RouterError,
    // Every well-formed path has a route (the app's catch-all): only an address that cannot be
    // decoded (/%E0%A4%A) ends here.
    notFoundComponent: RouteNotFound,
  });

  const indexRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    beforeLoad: async ({ context, location }) => {
      await requireSession(context, location.href, location.pathname);
      const target = afterSignInRoute('main', context.state.$flags.peek(), context.product);
      // Like every link, "/" keeps the overlay- parameters it was given (000 §2).
      const kept = keepOverlayParams(location.search as Record<string, unknown>, {});
      throw redirect({ href: `${target}${stringifySearch(kept)}`, replace: true });
    },
  });

  // Public screens. A signed-in visitor on a sign-in, sign-up or password screen goes to the
  // landing route.
  const publicLayout = createRoute({
    getParentRoute: () => rootRoute,
    id: 'public',
    component: Outlet,
  });
  const signedInElsewhere = async ({
    context,
    location,
  }: {
    context: RouterContext;
    location: { pathname: string };
  }) => {
    if (context.state.$session.peek()?.status !== 'signed-in') return;
    await context.state.loadAccount();
    const variant = variantFromPath(location.pathname);
    throw redirect({
      href: afterSignInRoute(variant, context.state.$flags.peek(), context.product),
      replace: true,
    });
  };
  const publicRoutes = [
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.auth.root,
      beforeLoad: () => {
        throw redirect({ href: r.auth.signIn, replace: true });
      },
    }),
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.auth.signIn,
      beforeLoad: signedInElsewhere,
      component: screens.signIn,
    }),
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.pulse.signIn,
      beforeLoad: signedInElsewhere,
      component: screens.signIn,
    }),
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.auth.platformAccess,
      beforeLoad: signedInElsewhere,
      component: screens.signUp,
    }),
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.auth.forgotPassword,
      beforeLoad: signedInElsewhere,
      component: screens.forgotPassword,
    }),
    createRoute({
      getParentRoute: () => publicLayout,
      path: '/auth/reset-password',
      // Like every sign-in screen, signed in it goes to the landing route (issue 5). A reset
      // link opened while signed in is used after signing out; the link stays valid until then.
      beforeLoad: signedInElsewhere,
      validateSearch: (search: Record<string, unknown>) => ResetPasswordSearch.parse(search),
      component: screens.resetPassword,
    }),
    // A shared document's link (features/uploads): signed in or out.
    createRoute({
      getParentRoute: () => publicLayout,
      path: r.redirectDocument,
      component: screens.sharedDocument,
    }),
    ...[r.oauth.root, r.oauth.redirect].map((path) =>
      createRoute({
        getParentRoute: () => publicLayout,
        path,
        component: PublicNotAvailablePage,
      }),
    ),
  ];

  // Everything else needs a session and shows the signed-in shell.
  const appLayout = createRoute({
    getParentRoute: () => rootRoute,
    id: 'app',
    beforeLoad: ({ context, location }) =>
      requireSession(context, location.href, location.pathname),
    component: AppLayout,
    errorComponent: RouterError,
  });
  const appRoutes = [
    ...appScreens(product, screens).map(([path, component]) =>
      createRoute({ getParentRoute: () => appLayout, path, component }),
    ),
    // Marked placeholders: the navigation shows no entry that leads to one (layout/built-routes).
    ...placeholderPatterns(product).map((path) =>
      createRoute({
        getParentRoute: () => appLayout,
        path,
        component: NotAvailablePage,
        staticData: { placeholder: true },
      }),
    ),
    createRoute({
      getParentRoute: () => appLayout,
      path: '$',
      component: CatchAllPage,
      staticData: { placeholder: true },
    }),
  ];

  return rootRoute.addChildren([
    indexRoute,
    publicLayout.addChildren(publicRoutes),
    appLayout.addChildren(appRoutes),
  ]);
}
