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
  /** `load` resolves to the page component (modules have named exports only). */
  return function lazyPage(load: () => Promise<ComponentType>): () => ReactElement {
    const Lazy = lazy(() =>
      load().then(
        (component) => {
          deps.storage.removeItem(GUARD_KEY);
          return { default: component };
        },
        (error: unknown) => {
          if (isModuleLoadError(error) && deps.storage.getItem(GUARD_KEY) === null) {
            deps.storage.setItem(GUARD_KEY, String(Date.now()));
            deps.reload();
            // The page is going away; never settle so nothing renders meanwhile.
            return new Promise<never>(() => {});
          }
          throw error;
        },
      ),
    );
    return function LazyPage() {
      return (
        <Suspense fallback={<PageLoading />}>
          <Lazy />
        </Suspense>
      );
    };
  };
}

export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading…
    </div>
  );
}
