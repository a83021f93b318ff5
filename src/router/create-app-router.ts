import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { RouterError } from '../screens/error-screen';
import { createRouteTree, type LazyScreens, type RouterContext } from './route-tree';
import { parseSearch, stringifySearch } from './search';

export function createAppRouter(opts: {
  context: RouterContext;
  history: RouterHistory;
  screens: LazyScreens;
}) {
  return createRouter({
    routeTree: createRouteTree(opts.context.product, opts.screens),
    context: opts.context,
    history: opts.history,
    parseSearch,
    stringifySearch,
    defaultErrorComponent: RouterError,
    defaultPreload: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
