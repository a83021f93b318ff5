import { useRouter, type AnyRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** The route shows "Not available yet": its feature arrives in a later release. */
    placeholder?: boolean;
  }
}

/**
 * Whether `path` leads to a placeholder ("Not available yet") in this router: the route it
 * matches is one of route-patterns' placeholders or the catch-all. Decided from the route table
 * at run time, so an entry comes back by itself once its feature's route is built.
 */
export function isPlaceholderPath(router: AnyRouter, path: string): boolean {
  const pathname = path.split(/[?#]/)[0];
  const [, , found] = router.getMatchedRoutes(pathname);
  return !found || found.options.staticData?.placeholder === true;
}

/** `isPlaceholderPath` for the shell's router, for the navigation's entries. */
export function useLeadsSomewhere(): (path: string) => boolean {
  const router = useRouter();
  return useCallback((path: string) => !isPlaceholderPath(router, path), [router]);
}
