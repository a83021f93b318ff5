import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API_RETRY_DELAY_MS } from '../../contract/constants';
import { createApiClient } from '../../worker/api-client';
import { progressBody, type UploadProgress } from '../../worker/api-upload';
import type { FetchLike } from '../../worker/deps';
import { createManualClock } from '../../worker/testing';

/**
 * The client over Node's real fetch against a tiny node:http server that answers when the
 * test says so: a body in chunks, an answer that never comes, an upload it counts.
 */

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; bytes: number };

const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const request: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bytes: 0,
    };
    seen.push(request);
    req.on('data', (chunk: Buffer) => (request.bytes += chunk.length));
    req.on('end', () => answer(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clock = createManualClock();
  // Node's fetch, counted: every attempt the client makes.
  const attempts: string[] = [];
  const fetch: FetchLike = (url, init) => {
    attempts.push(`${init.method} ${new URL(url).pathname}`);
    return globalThis.fetch(url, init);
  };
  const client = createApiClient({
    fetch,
    clock,
    baseUrl: `http://127.0.0.1:${port}/api`,
    product: 'needl',
    randomId: () => 'key-1',
    auth: {
      token: () => 'token-1',
      refresh: () => Promise.reject(new Error('no refresh in these tests')),
      missing: () => {},
      unauthorized: () => {},
    },
  });
  return { client, clock, seen, attempts };
}

const text = new TextDecoder();

describe('send: a body read as a stream', () => {
  it('hands over each chunk as it arrives, before the body has ended', async () => {
    const second = gate();
    const last = gate();
    let ended = false;
    const { client, seen } = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      await second.opened;
      res.write('data: two\n\n');
      await last.opened;
      res.end('data: three\n\n', () => (ended = true));
    });
    const response = await client.send({
      method: 'get',
      path: '/ml/ask-{product}',
      auth: true,
      headers: { accept: 'text/event-stream' },
    });
    expect(seen[0].url).toBe('/api/ml/ask-needl');
    expect(seen[0].headers).toMatchObject({ accept: 'text/event-stream', token: 'token-1' });
    const reader = response.body!.getReader();

    expect(text.decode((await reader.read()).value)).toBe('data: one\n\n');
    expect(ended).toBe(false);
    second.open();
    expect(text.decode((await reader.read()).value)).toBe('data: two\n\n');
    expect(ended).toBe(false);
    last.open();
    expect(text.decode((await reader.read()).value)).toBe('data: three\n\n');
    expect((await reader.read()).done).toBe(true);
  });
});

describe('send and call: abort on a signal', () => {
  it('before the answer: rejects with AbortError, and the server saw one request', async () => {
    const { client, clock, seen, attempts } = await serve(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const answer = client.send(
      { method: 'get', path: '/slow', auth: true },
      { signal: controller.signal },
    );
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    await expect(answer).rejects.toMatchObject({
      name: 'AbortError',
      message: 'GET /slow was cancelled',
    });
    // A retry would wait 300 ms on the clock: there is no such wait, and time passing sends nothing.
    expect(clock.pendingTimers()).toBe(0);
    await clock.advance(API_RETRY_DELAY_MS * 10);
    expect(attempts).toEqual(['GET /api/slow']);
    expect(seen).toHaveLength(1);
  });

  it('mid-stream: the next read rejects with AbortError, and nothing is sent again', async () => {
    const { client, clock, seen, attempts } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const controller = new AbortController();
    const response = await client.send(
      { method: 'get', path: '/stream', auth: true },
      { signal: controller.signal },
    );
    const reader = response.body!.getReader();
    expect(text.decode((await reader.read()).value)).toBe('data: one\n\n');
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await clock.advance(API_RETRY_DELAY_MS * 10);
    expect(attempts).toEqual(['GET /api/stream']);
    expect(seen).toHaveLength(1);
  });

  it('a call whose JSON is cut off by the abort rejects with AbortError, once sent', async () => {
    const { client, clock, seen, attempts } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"o1",');
    });
    const controller = new AbortController();
    const answer = client.call('organizationSelf', { signal: controller.signal });
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    await expect(answer).rejects.toMatchObject({
      name: 'AbortError',
      message: 'GET /organizations/self was cancelled',
    });
    await clock.advance(API_RETRY_DELAY_MS * 10);
    expect(attempts).toEqual(['GET /api/organizations/self']);
  });
});

describe('uploads with progress', () => {
  it('reports the bytes fetch has taken, chunk by chunk, and the server gets them all', async () => {
    const { client, seen } = await serve((_req, res) => res.end('{"ok":true}'));
    const progress: UploadProgress[] = [];
    const file = new Blob(['0123456789']);
    const response = await client.send({
      method: 'post',
      path: '/upload/complete',
      auth: true,
      headers: { 'content-type': 'application/octet-stream' },
      body: progressBody(file, (p) => progress.push(p), 4),
    });
    expect(await response.text()).toBe('{"ok":true}');
    expect(progress).toEqual([
      { sent: 4, total: 10 },
      { sent: 8, total: 10 },
      { sent: 10, total: 10 },
    ]);
    expect(seen.map((r) => [r.method, r.bytes, r.headers['idempotency-key']])).toEqual([
      ['POST', 10, 'key-1'],
    ]);
  });

  it('starts again from 0 when the upload is retried after a 503', async () => {
    let answers = 0;
    const { client, clock, seen } = await serve((_req, res) => {
      answers += 1;
      res.statusCode = answers === 1 ? 503 : 200;
      res.end(answers === 1 ? '{"error":"internal","message":"busy"}' : '{"ok":true}');
    });
    const progress: number[] = [];
    const sent = client.send({
      method: 'post',
      path: '/upload/complete',
      auth: true,
      body: progressBody(new Uint8Array(6), (p) => progress.push(p.sent), 3),
    });
    await expect.poll(() => clock.pendingTimers()).toBe(1);
    await clock.advance(API_RETRY_DELAY_MS);
    expect((await sent).status).toBe(200);
    expect(progress).toEqual([3, 6, 3, 6]);
    expect(seen.map((r) => r.bytes)).toEqual([6, 6]);
  });
});
