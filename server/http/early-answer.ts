import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';

/**
 * An answer sent before the request's body has arrived whole (the body limit's 413, a 401 or
 * 404 ahead of a handler that would read it) must leave the connection usable or say it will
 * not: otherwise the server promises keep-alive, gives up on the unread body and closes, and
 * the client's next request on that connection gets no answer (issue 17).
 *
 * So after such an answer the rest of the body is read and dropped, keeping the connection,
 * when its declared length is at most DRAIN_BYTES (whatever arrives within DRAIN_MS; past
 * either bound the connection is dropped). When more is declared, the length is not declared
 * (chunked), or the body is held by a reader that stopped (the body limit's, over 1 MiB), the
 * answer says `Connection: close`, and the server closes once it is sent.
 *
 * This owns the policy: the server is started with @hono/node-server's own clean-up off
 * (`autoCleanupIncoming: false`, start.ts), which would drop a body still arriving after half
 * a second while keep-alive was promised. Outside Node (tests' `app.request`) there is no
 * connection, and nothing to do.
 */

/** The most of an early-answered body that is read to keep its connection. */
export const DRAIN_BYTES = 8 * 1024 * 1024;
/** How long the rest of the body may take to arrive (real time). */
export const DRAIN_MS = 10_000;

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  // Cancelling a Node request's body destroys its connection: that is the bound.
  const giveUp = () => void reader.cancel().catch(() => undefined);
  const timer = setTimeout(giveUp, DRAIN_MS);
  timer.unref();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > DRAIN_BYTES) return giveUp();
    }
  } catch {
    // the client went away: nothing left to keep
  } finally {
    clearTimeout(timer);
  }
}

export const earlyAnswers = (): MiddlewareHandler => async (c, next) => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  // The request as the server made it: a body limit or handler may replace `c.req.raw`.
  const body = c.req.raw.body;
  await next();
  if (!incoming || !body || incoming.readableEnded) return;
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (!body.locked && declared <= DRAIN_BYTES) {
    void drain(body);
    return;
  }
  c.res.headers.set('connection', 'close');
};
