import { createAppShell, type AppShellManifest } from './app-shell';

/**
 * The service worker entry (built to /sw.js by vite.config.ts, which writes the build's file
 * list in place of the placeholder below). Wiring only: the logic is worker/app-shell.ts.
 */
type ExtendableEvent = Event & { waitUntil(work: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  respondWith(response: Promise<Response>): void;
};
type ServiceWorkerScope = {
  location: { origin: string };
  caches: CacheStorage;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
};

const scope = self as unknown as ServiceWorkerScope;
// Replaced by the build (vite.config.ts appShellManifest) with the manifest's JSON.
const manifest = JSON.parse('__APP_SHELL_MANIFEST__') as AppShellManifest;

const shell = createAppShell({
  manifest,
  caches: scope.caches,
  fetch: (url, init) => fetch(url, init),
  origin: scope.location.origin,
});

scope.addEventListener('install', (event) => {
  event.waitUntil(shell.install().then(() => scope.skipWaiting()));
});
scope.addEventListener('activate', (event) => {
  event.waitUntil(shell.activate().then(() => scope.clients.claim()));
});
scope.addEventListener('fetch', (event) => {
  const answer = shell.respond(event.request);
  if (answer) event.respondWith(answer);
});
