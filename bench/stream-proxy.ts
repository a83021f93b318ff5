import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the real server that counts the requests to one path
 * (the ask stream) as the server receives them: bench/stream's 8 tabs run on its origin, so
 * "connections to the ask endpoint" is counted where they arrive, whatever the tabs do inside
 * (SharedWorker requests are not visible to Playwright's page events).
 */

export type CountingProxy = {
  url: string;
  /** Requests to `path` so far. */
  count(): number;
  close(): Promise<void>;
};

export async function startCountingProxy(target: string, path: string): Promise<CountingProxy> {
  const to = new URL(target);
  let counted = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://proxy').pathname === path) counted++;
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // A client that goes away takes the upstream request with it (the server sees the close).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => counted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
