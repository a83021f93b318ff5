import { systemClock, type LockManagerLike, type WorkspaceDeps } from './deps';

/** The browser's capabilities for the worker entries (SharedWorker and dedicated worker). */
export function browserDeps(scope: WorkerGlobalScopeLike): WorkspaceDeps {
  const locks: LockManagerLike = {
    // The DOM typing wraps the callback's promise once more; the lock manager awaits it.
    request: (name, options, callback) =>
      scope.navigator.locks.request(name, options, callback) as Promise<never>,
  };
  return {
    fetch: (url, init) => scope.fetch(url, init),
    indexedDB: scope.indexedDB,
    clock: systemClock,
    locks,
    broadcastChannel: (name) => new BroadcastChannel(name),
    randomId: () => scope.crypto.randomUUID(),
    baseUrl: `${scope.location.origin}/api`,
    product: __PRODUCT__,
    network: {
      onOnline(listener) {
        scope.addEventListener('online', listener);
        return () => scope.removeEventListener('online', listener);
      },
    },
  };
}

/** The worker global as far as the entries use it (the tsconfig has the DOM lib, not WebWorker). */
export type WorkerGlobalScopeLike = {
  fetch: typeof fetch;
  indexedDB: IDBFactory;
  navigator: { locks: LockManager };
  crypto: Crypto;
  location: { origin: string };
  addEventListener(type: 'online', listener: () => void): void;
  removeEventListener(type: 'online', listener: () => void): void;
};
