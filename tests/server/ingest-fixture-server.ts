import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A local HTTP server (127.0.0.1, a free port) that serves fixture feeds to the ingestion
 * tests, so nothing reaches the internet. Each path is a route the test sets; every request is
 * counted per path, and conditional GETs are answered by the route's validators.
 */
export type Route = {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answers 304 when the request's If-None-Match matches. */
  etag?: string;
  /** Answers 304 when the request's If-Modified-Since equals it. */
  lastModified?: string;
  /** Handles the request itself (streams, delays). */
  handle?: (req: IncomingMessage, res: ServerResponse) => void;
};

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export const fixture = (path: string): Buffer => readFileSync(join(FIXTURES, path));
export const fixtureText = (path: string): string => fixture(path).toString('utf8');

export const startFixtureServer = async () => {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const requests: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    requests.push({ path, headers: req.headers });
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (route.handle) {
      route.handle(req, res);
      return;
    }
    const validators: Record<string, string> = {};
    if (route.etag) validators.etag = route.etag;
    if (route.lastModified) validators['last-modified'] = route.lastModified;
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if ((route.etag && inm === route.etag) || (route.lastModified && ims === route.lastModified)) {
      res.writeHead(304, validators).end();
      return;
    }
    res
      .writeHead(route.status ?? 200, {
        'content-type': 'application/rss+xml; charset=utf-8',
        ...validators,
        ...route.headers,
      })
      .end(route.body ?? '');
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    url: (path: string) => `${base}${path}`,
    routes,
    hits: (path: string) => hits.get(path) ?? 0,
    requests,
    set: (path: string, route: Route) => routes.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type FixtureServer = Awaited<ReturnType<typeof startFixtureServer>>;

/** An RSS 2.0 feed of `n` items (`first` upwards), each with a guid, link and date. */
export const rssOf = (n: number, first = 1, title = 'Fixture wire'): string => {
  const items: string[] = [];
  for (let i = first; i < first + n; i++) {
    const date = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toUTCString();
    items.push(
      `<item><title>Story ${i}</title><link>https://news.example.com/story/${i}</link>` +
        `<guid isPermaLink="false">story-${i}</guid><pubDate>${date}</pubDate>` +
        `<description>Body of story ${i} about markets and rates.</description></item>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title>` +
    `<link>https://news.example.com/</link><description>fixture</description>` +
    `${items.join('')}</channel></rss>`
  );
};
