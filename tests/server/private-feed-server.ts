import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Harbour Private Notes</title><link>/notes</link>
</channel></rss>`;

/**
 * A feed served from this machine for the suite (FETCH_ALLOW_PRIVATE=1 while it runs, so the
 * server may probe it): following its URL makes a source private to the follower. Answers the
 * feed's address once the suite has started.
 */
export function usePrivateFeedServer(): () => string {
  let server: Server;
  let base = '';
  let allowPrivate: string | undefined;
  beforeAll(async () => {
    allowPrivate = process.env.FETCH_ALLOW_PRIVATE;
    process.env.FETCH_ALLOW_PRIVATE = '1';
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (allowPrivate === undefined) delete process.env.FETCH_ALLOW_PRIVATE;
    else process.env.FETCH_ALLOW_PRIVATE = allowPrivate;
    await new Promise((resolve) => server?.close(resolve));
  });
  return () => `${base}/feed.xml`;
}
