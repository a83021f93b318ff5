import { Suspense, lazy, type ComponentType, type ReactElement } from 'react';
import { isModuleLoadError } from '../lib/user-message';

export { isModuleLoadError };

/** Where the reload-once guard lives; sessionStorage so it is per tab and survives the reload. */
export type ReloadGuardStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const GUARD_KEY = 'shell:lazy-reload';

/**
 * A failed dynamic module load reloads the page instead of showing an error (000 §2, §8), once:
 * if the module still fails after the reload, the error reaches the generic error screen, which
 * says in plain words that part of the app could not be loaded.
 */
export function createLazyPageLoader(deps: { storage: ReloadGuardStorage; reload: () => void }) {
  /**
   * `load` resolves to the page component (modules have named exports only). The page has a
   * `preload()`, which the router awaits before it shows the route: a page whose module has
   * loaded renders at once instead of suspending (React holds a revealed Suspense boundary for
   * 300 ms, which would delay the first paint of every screen by that much).
   */
  return function lazyPage(load: () => Promise<ComponentType>): LazyPageComponent {
    let loaded: ComponentType | null = null;
    let loading: Promise<ComponentType> | null = null;
    const preload = () =>
      (loading ??= load().then(
        (component) => {
          deps.storage.removeItem(GUARD_KEY);
          loaded = component;
          return component;
        },
        (error: unknown) => {
          loading = null;
          if (isModuleLoadError(error) && deps.storage.getItem(GUARD_KEY) === null) {
            deps.storage.setItem(GUARD_KEY, String(Date.now()));
            deps.reload();
            // The page is going away; never settle so nothing renders meanwhile.
            return new Promise<never>(() => {});
          }
          throw error;
        },
      ));
    const Lazy = lazy(() => preload().then((component) => ({ default: component })));
    const LazyPage = () => {
      const Loaded = loaded;
      if (Loaded) return <Loaded />;
      return (
        <Suspense fallback={<PageLoading />}>
          <Lazy />
        </Suspense>
      );
    };
    return Object.assign(LazyPage, { preload: () => preload().then(() => undefined) });
  };
}

/** A lazily loaded page: a component, and the load the router awaits before showing it. */
export type LazyPageComponent = (() => ReactElement) & { preload: () => Promise<void> };

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading…
    </div>
  );
}
