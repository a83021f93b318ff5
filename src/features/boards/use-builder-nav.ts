import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { routesFor } from '../../lib/routes';
import { withoutOverlayParams } from '../../lib/overlay';
import { useShell } from '../../shell-context';
import { builderSearch, type BuilderMode, type BuilderTarget } from './builder-params';

export type BuilderNav = {
  mode: BuilderMode;
  /** Another page of the builder (in the overlay, the page beneath stays). */
  go: (target: BuilderTarget, opts?: { replace?: boolean }) => void;
  /** Leave the builder: close the overlay, or from the route go to the feed manager. */
  close: () => void;
  /** Leave the builder for a feed's page (after saving it). */
  openFeed: (boardId: string) => void;
};

/** How the builder moves between its pages, wherever it is shown. */
export function useBuilderNav(mode: BuilderMode): BuilderNav {
  const navigate = useNavigate();
  const { product } = useShell();
  return useMemo(() => {
    const r = routesFor(product);
    return {
      mode,
      go: (target, opts) =>
        void navigate({
          to: mode === 'route' ? r.customFeed : '.',
          search: (prev: Record<string, unknown>) => builderSearch(mode, prev, target),
          replace: opts?.replace,
        }),
      close: () =>
        void (mode === 'route'
          ? navigate({ to: r.settings.feedsRoot, search: {} })
          : navigate({
              to: '.',
              search: (prev: Record<string, unknown>) => withoutOverlayParams(prev),
            })),
      openFeed: (boardId) => void navigate({ to: r.feeds.feed(boardId), search: {} }),
    } satisfies BuilderNav;
  }, [mode, navigate, product]);
}
