import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of the e2e server that can cut the network. Playwright's setOffline
 * does not reach a SharedWorker's fetch, so the page is loaded through this proxy and the
 * outage is made here: open connections are dropped and new ones are refused until restored.
 */
export async function startOutageProxy(target: { host: string; port: number }) {
  const open = new Set<Socket>();
  let down = false;
  let refused = 0;
  /** When each connection was refused: a burst (one request and its retries) is close together. */
  const refusedAt: number[] = [];

  const server = createServer((client) => {
    if (down) {
      refused += 1;
      refusedAt.push(Date.now());
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    /** Connections refused since the proxy started. */
    refused: () => refused,
    /**
     * Bursts of refused connections since `since`: attempts more than 400 ms apart (a request
     * and its quick retries, 300 ms apart, count once; the worker's probes, every 500 ms while
     * offline, count each), and how long ago the last one was.
     */
    attempts(since: number) {
      const times = refusedAt.filter((t) => t >= since);
      const bursts = times.filter((t, i) => i === 0 || t - times[i - 1] > 400).length;
      return { bursts, quietMs: times.length ? Date.now() - times[times.length - 1] : 0 };
    },
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
