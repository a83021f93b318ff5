import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../contract/auth';
import { readConfig } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start';

/**
 * Per-user limits (issue 17, item 5). Before: one user ran 50 concurrent asks, 200 asks in
 * 6.5 s, 500 follows in 5 s and 300 live streams, all accepted. Here, over the real HTTP server
 * with small limits: 3 answers at once, 8 questions a minute, 4 follows an hour, 2 live
 * connections.
 */

/**
 * An OpenAI-compatible model that starts each answer and finishes it only when told, so that
 * answers stay in flight for as long as a test needs. `aborted` counts answers whose client
 * (the server asking) went away.
 */
type HeldModel = {
  baseUrl: string;
  started: number;
  aborted: number;
  /** Finishes the oldest answer still held. */
  finishOne(): void;
  /** Finishes every answer held, and answers at once from now on. */
  release(): void;
  hold: boolean;
  close(): Promise<void>;
};

const startHeldModel = async (): Promise<HeldModel> => {
  const waiting: Array<() => void> = [];
  const model: HeldModel = {
    baseUrl: '',
    started: 0,
    aborted: 0,
    hold: true,
    finishOne: () => waiting.shift()?.(),
    release: () => {
      model.hold = false;
      while (waiting.length) waiting.shift()?.();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const chunk = (content: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      model.started += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Revenue '));
      const finish = () => {
        if (res.writableEnded || res.destroyed) return;
        res.end(`${chunk('grew.')}data: [DONE]\n\n`);
      };
      res.once('close', () => {
        if (!res.writableFinished) model.aborted += 1;
      });
      if (model.hold) waiting.push(finish);
      else finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
};

const clock = { now: Date.parse('2025-03-03T10:00:00.000Z') };
let dir = '';
let model: HeldModel;
let server: RunningServer;

beforeAll(async () => {
  model = await startHeldModel();
  dir = mkdtempSync(join(tmpdir(), 'user-limits-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    ingest: false,
    log: () => undefined,
    now: () => clock.now,
    llm: { baseUrl: model.baseUrl, model: 'test-model' },
    userLimits: { concurrentAsks: 3, asksPerMinute: 8, followsPerHour: 4, liveConnections: 2 },
  });
});

afterAll(async () => {
  await server?.close();
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${server.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });

const signIn = async (email: string, password: string) => {
  const res = await post('/auth/signin', { email, password });
  expect(res.status).toBe(200);
  return ((await res.json()) as Session).id_token;
};
const signInDemo = () => signIn('demo@needl.ai', 'demo-password');

let accounts = 0;
const newEmail = () => `limits-${++accounts}-${Date.now()}@example.com`;
/** A new account's id token (`email`: its address, when the test signs in again later). */
const newAccount = async (email = newEmail()) => {
  const res = await post('/auth/signup', { name: 'Limits', email, password: 'correct-horse' });
  expect(res.status).toBe(201);
  return ((await res.json()) as Session).id_token;
};

/** Starts an ask; resolves once its answer's headers are in (the stream may still run). */
const ask = (token: string, prompt = 'What happened to revenue?', signal?: AbortSignal) =>
  fetch(`${server.url}/api/ml/ask-needl?${new URLSearchParams({ prompt })}`, {
    headers: { token },
    signal,
  });

const refusalOf = async (res: Response) => ({
  status: res.status,
  retryAfter: res.headers.get('retry-after'),
  body: (await res.json()) as unknown,
});

/** Tries `attempt` until it answers 200 (a slot is given back once the server sees the end). */
const until200 = async (attempt: () => Promise<Response>) => {
  for (let i = 0; i < 100; i++) {
    const res = await attempt();
    if (res.status === 200) return res;
    expect(res.status).toBe(429);
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never answered 200');
};

describe('concurrent asks per user', () => {
  it('refuses a 4th answer at once and takes one again when an answer finishes', async () => {
    const token = await signInDemo();
    const before = model.started;
    const running = await Promise.all([ask(token), ask(token), ask(token)]);
    expect(running.map((r) => r.status)).toEqual([200, 200, 200]);
    // All three are with the model, held.
    await expect.poll(() => model.started - before).toBe(3);
    const bodies = running.map((r) => r.text());

    const fourth = await ask(token);
    expect(await refusalOf(fourth)).toEqual({
      status: 429,
      retryAfter: '5',
      body: {
        error: 'rate_limited',
        message:
          'too many questions at once: 3 answers are already being written; try again when one has finished',
      },
    });
    // Another user is not held back.
    const other = await ask(await newAccount(), 'What is new?');
    expect(other.status).toBe(200);
    await other.body?.cancel();

    // One answer finishes, read to its end: its slot is free before the client sees the end.
    model.finishOne();
    expect(await Promise.race(bodies)).toContain('"status":"DONE"');
    const fifth = await ask(token);
    expect(fifth.status).toBe(200);

    model.release();
    await Promise.all([...bodies, fifth.text()]);
  });

  it('gives the slot back when the client goes away, and holds none for a refused ask', async () => {
    clock.now += 60_000;
    const token = await signInDemo();
    model.hold = true;
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const running = await Promise.all(controllers.map((c) => ask(token, undefined, c.signal)));
    expect(running.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await ask(token)).status).toBe(429);

    const aborted = model.aborted;
    controllers[0].abort();
    // The server saw the client go (and so gave the slot back) and stopped asking the model.
    await expect.poll(() => model.aborted).toBe(aborted + 1);
    // Questions refused before they start (no prompt: 400) take no slot away.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/ml/ask-needl?mode=search`, { headers: { token } });
      expect(res.status).toBe(400);
      await res.body?.cancel();
    }
    const replacement = new AbortController();
    expect((await ask(token, undefined, replacement.signal)).status).toBe(200);
    expect((await ask(token)).status).toBe(429);

    model.release();
    for (const c of [...controllers, replacement]) c.abort();
  });
});

describe('questions per minute', () => {
  it('answers 8 questions a minute per user, then 429 until the oldest is a minute old', async () => {
    clock.now += 60_000;
    model.hold = false;
    const token = await newAccount();
    for (let i = 0; i < 8; i++) {
      const res = await ask(token, `Question ${i}?`);
      expect(res.status).toBe(200);
      await res.text();
    }
    clock.now += 20_000;
    expect(await refusalOf(await ask(token, 'A ninth?'))).toEqual({
      status: 429,
      retryAfter: '40',
      body: { error: 'rate_limited', message: 'too many questions; try again in 40 seconds' },
    });
    const other = await ask(await newAccount(), 'Another user?');
    expect(other.status).toBe(200);
    await other.text();
    clock.now += 40_000;
    const later = await ask(token, 'A ninth, later?');
    expect(later.status).toBe(200);
    await later.text();
  });
});

describe('follows per hour', () => {
  it('takes 4 follow calls an hour per user, then 429 with the wait', async () => {
    const email = newEmail();
    const token = await newAccount(email);
    const calls = [
      () => post('/connect/public', { key: 'demo_macro_monitor' }, token),
      () => post('/connect/public', { key: 'demo_macro_monitor', delink: true }, token),
      () => post('/connect/public/multiple', { keys: ['demo_policy_brief'] }, token),
      // A refused follow counts too: it was a call.
      () => post('/connect/rss', { url: 'not a url' }, token),
    ];
    const statuses = [];
    for (const call of calls) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 400]);

    const refused = await post('/connect/public', { key: 'demo_macro_monitor' }, token);
    expect(await refusalOf(refused)).toEqual({
      status: 429,
      retryAfter: '3600',
      body: { error: 'rate_limited', message: 'too many follows; try again in 60 minutes' },
    });
    // Reading what one follows is not a follow.
    const read = await fetch(`${server.url}/api/source/public`, { headers: { token } });
    expect(read.status).toBe(200);
    const other = await post('/connect/public', { key: 'demo_macro_monitor' }, await newAccount());
    expect(other.status).toBe(200);

    // An hour later (the id token has expired with it: sign in again).
    clock.now += 60 * 60_000;
    const again = await signIn(email, 'correct-horse');
    expect((await post('/connect/public', { key: 'demo_policy_brief' }, again)).status).toBe(200);
  });
});

describe('live connections per user', () => {
  const live = (token: string, signal?: AbortSignal) =>
    fetch(`${server.url}/api/sync/live`, { headers: { token }, signal });

  it('holds 2 open per user, refuses a 3rd, and takes one again when a client goes', async () => {
    const token = await newAccount();
    const controllers = [new AbortController(), new AbortController()];
    const open = await Promise.all(controllers.map((c) => live(token, c.signal)));
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    expect(await refusalOf(await live(token))).toEqual({
      status: 429,
      retryAfter: '30',
      body: {
        error: 'rate_limited',
        message:
          'too many live connections: 2 are open for this account; close some tabs or devices',
      },
    });
    const otherController = new AbortController();
    expect((await live(await newAccount(), otherController.signal)).status).toBe(200);
    otherController.abort();

    controllers[0].abort();
    const third = new AbortController();
    await until200(() => live(token, third.signal));
    third.abort();
    controllers[1].abort();
  });
});

describe('the configuration', () => {
  it('reads each limit from LIMIT_* with the defaults, refusing what cannot work', () => {
    expect(readConfig({}).userLimits).toEqual({
      concurrentAsks: 3,
      asksPerMinute: 20,
      followsPerHour: 120,
      liveConnections: 8,
      uploadsInFlight: 10,
    });
    expect(
      readConfig({
        LIMIT_CONCURRENT_ASKS: '5',
        LIMIT_ASKS_PER_MINUTE: '60',
        LIMIT_FOLLOWS_PER_HOUR: '1000',
        LIMIT_LIVE_CONNECTIONS: '20',
        LIMIT_UPLOADS_IN_FLIGHT: '4',
      }).userLimits,
    ).toEqual({
      concurrentAsks: 5,
      asksPerMinute: 60,
      followsPerHour: 1000,
      liveConnections: 20,
      uploadsInFlight: 4,
    });
    expect(() => readConfig({ LIMIT_CONCURRENT_ASKS: '0' })).toThrow(
      'LIMIT_CONCURRENT_ASKS must be an integer between 1 and 1000, got "0"',
    );
  });
});
