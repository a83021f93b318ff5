import http from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '../worker/deps';

export type PooledFetch = {
  fetch: FetchLike;
  /** Closes every socket of the pool (the next request opens a new one). */
  reset(): void;
};

/**
 * A minimal fetch over node:http with its own keep-alive pool, so each workspace of the bench
 * holds its own connections, as separate pages (or workers) would. Node's global fetch shares
 * one pool per process, which would hide the difference the bench measures.
 */
export function createPooledFetch(): PooledFetch {
  let agent = new http.Agent({ keepAlive: true });
  const fetch: FetchLike = (url, init) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method: init.method, headers: init.headers, agent, signal: init.signal },
        (response) => {
          // Answered once the headers are in; the body is read as it arrives.
          const body = Readable.toWeb(response) as ReadableStream<Uint8Array>;
          resolve({
            status: response.statusCode ?? 0,
            body,
            text: () => new Response(body).text(),
          });
        },
      );
      request.on('error', (error) => reject(new TypeError(`fetch failed: ${error.message}`)));
      if (init.body !== undefined) request.write(init.body);
      request.end();
    });
  return {
    fetch,
    reset() {
      agent.destroy();
      agent = new http.Agent({ keepAlive: true });
    },
  };
}
