import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import { startServer, type RunningServer } from '../../server/start';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * The edge of the API (issue 17): text PostgreSQL cannot store is refused with a 400 naming
 * where it is, alike on every back end; error bodies list at most 20 problems; an answer given
 * before a request's body was read leaves the connection usable or says `Connection: close`.
 */

const NUL = 'must not contain the NUL character (U+0000)';
const SURROGATE = 'must be valid Unicode (it holds an unpaired surrogate)';

describe.each(STORAGES)('text PostgreSQL cannot store, on %s', (storage) => {
  let h: Harness;
  let token = '';
  beforeAll(async () => {
    h = await createHarness(storage);
    token = (await h.signUp()).session.id_token;
  });
  afterAll(async () => {
    await h?.close();
  });

  const refused = (res: { status: number; body: unknown }, path: string, message: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'bad_request',
      message: `${path}: ${message}`,
      issues: [{ path, message }],
    });
  };

  it('in a body string: search, sign-up, a feed created and renamed', async () => {
    refused(await h.call('POST', '/search', { token, body: { q: 'revenue\u0000' } }), 'q', NUL);
    refused(
      await h.call('POST', '/auth/signup', {
        body: { name: 'Ada\u0000', email: 'nul@example.com', password: 'correct-horse' },
      }),
      'name',
      NUL,
    );
    refused(
      await h.call('POST', '/auth/signup', {
        body: { name: 'Ada \ud800', email: 'lone@example.com', password: 'correct-horse' },
      }),
      'name',
      SURROGATE,
    );
    refused(
      await h.call('POST', '/boards/v2', {
        token,
        body: { board_name: 'Rates\u0000', definition: EMPTY_DEFINITION },
      }),
      'board_name',
      NUL,
    );
    const made = await h.call('POST', '/boards/v2', {
      token,
      body: { board_name: 'Rates', definition: EMPTY_DEFINITION },
    });
    expect(made.status).toBe(201);
    const id = made.body.board_id as string;
    refused(
      await h.call('PUT', `/boards/${id}`, {
        token,
        body: {
          board_name: 'Rates',
          definition: {
            ...EMPTY_DEFINITION,
            keywords: { include: [{ keyword: 'rates\u0000', valid: true }], exclude: [] },
          },
        },
      }),
      'definition.keywords.include.0.keyword',
      NUL,
    );
    refused(
      await h.call('PUT', `/boards/${id}`, {
        token,
        body: { board_name: 'Ra\ud83dtes', definition: EMPTY_DEFINITION },
      }),
      'board_name',
      SURROGATE,
    );
    // Nothing was created by the refused sign-ups: the e-mail is free.
    const later = await h.call('POST', '/auth/signup', {
      body: { name: 'Ada', email: 'nul@example.com', password: 'correct-horse' },
    });
    expect(later.status).toBe(201);
  });

  it('in a field name: preferences', async () => {
    refused(
      await h.call('PUT', '/user/preferences', {
        token,
        body: { overlay_widths: { 'preview\u0000': 400 } },
      }),
      'overlay_widths.preview\\u0000',
      `field name ${NUL}`,
    );
  });

  it('in a path parameter, with or without an idempotency key', async () => {
    refused(await h.call('GET', '/boards/a%00b', { token }), 'id', NUL);
    refused(
      await h.call('PUT', '/boards/a%00b', {
        token,
        key: 'rename-1',
        body: { board_name: 'Rates', definition: EMPTY_DEFINITION },
      }),
      'id',
      NUL,
    );
    refused(await h.call('DELETE', '/ml/ask-needl/sessions/s%00', { token }), 'id', NUL);
  });

  it('in a query parameter, the ask stream included', async () => {
    refused(
      await h.call('GET', '/ml/ask-needl/messaging?board_id=a%00b', { token }),
      'board_id',
      NUL,
    );
    refused(await h.call('GET', '/ml/ask-needl?prompt=revenue%00', { token }), 'prompt', NUL);
    refused(
      await h.call('GET', '/ml/ask-needl/sessions?q=x&q%00=y', { token }),
      'q\\u0000',
      `parameter name ${NUL}`,
    );
  });

  it('while the same text without it is taken', async () => {
    const res = await h.call('POST', '/search', { token, body: { q: 'revenue \ud83d\ude00' } });
    expect(res.status).toBe(200);
  });
});

describe('error bodies', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('name at most 20 of 50,000 unknown keys, and say how many more there were', async () => {
    const body: Record<string, unknown> = {
      name: 'Ada',
      email: 'many@example.com',
      password: 'correct-horse',
    };
    for (let i = 0; i < 50_000; i++) body[`k${i}`] = 1;
    const res = await h.call('POST', '/auth/signup', { body });
    expect(res.status).toBe(400);
    const keys =
      'k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19';
    expect(res.body).toEqual({
      error: 'bad_request',
      message: `${keys}: unknown fields not allowed (and 49,980 more problems not listed)`,
      issues: [{ path: keys, message: 'unknown fields not allowed' }],
    });
    expect(JSON.stringify(res.body).length).toBeLessThan(1_000);
  });

  it('list 20 of 30 wrong items', async () => {
    const { session } = await h.signUp();
    const ids = Array.from({ length: 30 }, (_, i) => i);
    const res = await h.call('POST', '/notifications/read', {
      token: session.id_token,
      body: { ids },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `ids.${i}`),
    );
    expect(res.body.message).toMatch(/^ids\.0: .* \(and 10 more problems not listed\)$/);
  });

  it('cut a 1 MiB unknown key to 100 characters', async () => {
    const key = 'x'.repeat(900_000);
    const res = await h.call('POST', '/auth/signup', {
      body: { name: 'Ada', email: 'long@example.com', password: 'correct-horse', [key]: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: `${'x'.repeat(100)}…`, message: 'unknown field not allowed' },
    ]);
  });
});

/** One HTTP/1.1 answer read off a raw socket: status, headers (lower case), body. */
type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** A keep-alive connection to the server on which answers are read one by one. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  let ended = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  socket.on('close', () => {
    ended = true;
    wake();
  });
  // A write after the server closed fails with EPIPE/ECONNRESET: the answers tell the story.
  socket.on('error', () => undefined);
  const more = () => new Promise<void>((resolve) => waiters.push(resolve));

  /** The next answer, or null when the connection closed first. */
  const answer = async (): Promise<RawAnswer | null> => {
    for (;;) {
      const head = buffer.indexOf('\r\n\r\n');
      if (head >= 0) {
        const lines = buffer.subarray(0, head).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(
          lines.slice(1).map((l) => {
            const at = l.indexOf(':');
            return [l.slice(0, at).toLowerCase(), l.slice(at + 1).trim()];
          }),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length >= head + 4 + length) {
          const body = buffer.subarray(head + 4, head + 4 + length).toString();
          buffer = buffer.subarray(head + 4 + length);
          return { status: Number(lines[0].split(' ')[1]), headers, body };
        }
      }
      if (ended) return null;
      await more();
    }
  };
  const closed = async () => {
    while (!ended) await more();
  };
  return { socket, answer, closed };
}

const MiB = 1024 * 1024;
const post = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n${headers}\r\n`;
const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n';

describe('an answer before the body was read', () => {
  let dir = '';
  let server: RunningServer;
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-edge-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      seed: false,
      ingest: false,
      log: () => undefined,
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('413 for 2 MiB: the rest is read, and the next request on the connection is answered', async () => {
    const c = rawConnection(port);
    const size = 2 * MiB;
    c.socket.write(
      post('/api/auth/signup', `Content-Type: application/json\r\nContent-Length: ${size}\r\n`),
    );
    c.socket.write(Buffer.alloc(size, 'x'));
    const first = await c.answer();
    expect(first?.status).toBe(413);
    expect(JSON.parse(first!.body)).toEqual({
      error: 'bad_request',
      message: 'request body is too large (limit 1 MiB)',
    });
    expect(first?.headers.connection).toBe('keep-alive');
    c.socket.write(HEALTH);
    const second = await c.answer();
    expect(second?.status).toBe(200);
    c.socket.destroy();
  });

  it('413 for 9 MiB declared: Connection: close, and the server closes', async () => {
    const c = rawConnection(port);
    c.socket.write(
      post('/api/auth/signup', `Content-Type: application/json\r\nContent-Length: ${9 * MiB}\r\n`),
    );
    c.socket.write(Buffer.alloc(64 * 1024, 'x'));
    const first = await c.answer();
    expect(first?.status).toBe(413);
    expect(first?.headers.connection).toBe('close');
    await c.closed();
  });

  it('413 for an oversize chunked body: Connection: close', async () => {
    const c = rawConnection(port);
    c.socket.write(
      post('/api/auth/signup', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n'),
    );
    const chunk = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 5; i++) c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const first = await c.answer();
    expect(first?.status).toBe(413);
    expect(first?.headers.connection).toBe('close');
    await c.closed();
  });

  it('401 ahead of a body still arriving: the rest is read, and the next request answered', async () => {
    const c = rawConnection(port);
    const size = 512 * 1024;
    c.socket.write(
      post('/api/boards/v2', `Content-Type: text/plain\r\nContent-Length: ${size}\r\n`),
    );
    c.socket.write(Buffer.alloc(size / 2, 'x'));
    const first = await c.answer();
    expect(first?.status).toBe(401);
    expect(first?.headers.connection).toBe('keep-alive');
    c.socket.write(Buffer.alloc(size / 2, 'x'));
    c.socket.write(HEALTH);
    const second = await c.answer();
    expect(second?.status).toBe(200);
    c.socket.destroy();
  });
});
