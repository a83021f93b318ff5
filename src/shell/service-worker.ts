/**
 * Registers the app shell's service worker (worker/service-worker.ts, built to /sw.js), so a
 * reload or a new tab starts the app while the server is down. Only in a build: the dev
 * server's files change under it.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
    console.warn('the app shell could not be kept for offline use:', error);
  });
}
