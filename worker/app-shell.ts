/**
 * The app shell's service worker, as a factory (worker/service-worker.ts is its thin entry):
 * it keeps the built app (index.html and every file under /assets/, listed by the build) in a
 * cache named after the build, so a reload or a new tab starts the app while the server is
 * down, and the worker then shows what its mirror holds. It never touches /api/: answers come
 * from the worker's mirror, never from this cache.
 *
 * - install: the build's files are fetched into `app-shell-<version>` (bypassing the HTTP
 *   cache); the new worker takes over at once (skipWaiting).
 * - activate: caches of other builds are deleted; open pages are claimed. A page still
 *   running an older build whose lazy file is gone gets the server's 404, and the app reloads.
 * - fetch: a page load asks the network first (a new build's index.html arrives as soon as it
 *   exists) and falls back to the cached index.html; a hashed asset is answered from the cache
 *   (its content never changes), else from the network.
 */

export const APP_SHELL_CACHE_PREFIX = 'app-shell-';

/** What the build writes into the service worker: its files, and a version naming them. */
export type AppShellManifest = { version: string; files: string[] };

export type CacheLike = {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
};

export type CacheStorageLike = {
  open(name: string): Promise<CacheLike>;
  keys(): Promise<string[]>;
  delete(name: string): Promise<boolean>;
};

export type ShellRequest = { url: string; method: string; mode: string };

export function createAppShell(deps: {
  manifest: AppShellManifest;
  caches: CacheStorageLike;
  fetch: (url: string, init?: { cache?: 'reload' }) => Promise<Response>;
  /** The page's origin (the service worker's own). */
  origin: string;
}) {
  const name = `${APP_SHELL_CACHE_PREFIX}${deps.manifest.version}`;

  const install = async () => {
    const cache = await deps.caches.open(name);
    // One by one and all required: a partial shell that cannot start is worse than none.
    for (const file of deps.manifest.files) {
      const response = await deps.fetch(file, { cache: 'reload' });
      if (!response.ok) throw new Error(`app shell: ${file} answered ${response.status}`);
      await cache.put(file, response);
    }
  };

  const activate = async () => {
    for (const key of await deps.caches.keys()) {
      if (key.startsWith(APP_SHELL_CACHE_PREFIX) && key !== name) await deps.caches.delete(key);
    }
  };

  /** The answer for a request, or null to leave it to the browser (never /api/). */
  const respond = (request: ShellRequest): Promise<Response> | null => {
    if (request.method !== 'GET') return null;
    const url = new URL(request.url);
    if (url.origin !== deps.origin || url.pathname.startsWith('/api/')) return null;
    if (request.mode === 'navigate') return pageLoad(request.url);
    if (url.pathname.startsWith('/assets/')) return asset(url.pathname);
    return null;
  };

  const pageLoad = async (url: string) => {
    try {
      return await deps.fetch(url);
    } catch (error) {
      const cached = await (await deps.caches.open(name)).match('/index.html');
      if (cached) return cached;
      throw error;
    }
  };

  const asset = async (path: string) => {
    const cached = await (await deps.caches.open(name)).match(path);
    return cached ?? deps.fetch(path);
  };

  return { install, activate, respond, cacheName: name };
}
