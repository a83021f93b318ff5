import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change } from '../../contract/sync';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { startServer, type RunningServer, type StartOptions } from '../../server/start';
import type { FetchLike, RequestInitLike } from '../../worker/deps';
import type { Mirror } from '../../worker/mirror';
import { responseOf } from '../../worker/testing';
import {
  createHeadlessWorkspace,
  nodeFetch,
  type HeadlessOptions,
  type HeadlessWorkspace,
} from '../../worker/headless';

export type TestServer = {
  server: RunningServer;
  baseUrl: string;
  /** The server's SQLite directory (tests/worker/feed-support.ts opens a second connection). */
  dataDir: string;
  close(): Promise<void>;
};

/**
 * Whether a server with these options would seed what tests/worker/global-setup.ts seeded once
 * (the seed depends only on the clock and the product name, and lives in the SQLite directory).
 */
const startsFromSeeded = (options: StartOptions) =>
  options.seed !== false &&
  options.now === undefined &&
  options.product === undefined &&
  options.dataDir === undefined &&
  options.databaseUrl === undefined &&
  options.pglite === undefined &&
  options.storage === undefined;

/**
 * The real server, in-process on a free port, over a throwaway SQLite directory: a copy of the
 * run's seeded one where the options allow, so that the server finds its seed and migrations done.
 */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'worker-test-'));
  const seeded = inject('seededDataDir');
  if (seeded && startsFromSeeded(options)) cpSync(seeded, dataDir, { recursive: true });
  const server = await startServer({ port: 0, dataDir, seed: true, log: () => {}, ...options });
  return {
    server,
    baseUrl: `${server.url}/api`,
    dataDir,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type WorkspaceSuite = {
  /** The suite's server; read it inside tests and hooks (it starts in beforeAll). */
  readonly env: TestServer;
  /** A headless workspace on the suite's server, closed after the test that opened it. */
  workspace(options?: Partial<HeadlessOptions>): HeadlessWorkspace;
};

/**
 * One test server for the calling test file (started before its tests, closed after them) and
 * workspaces on it that are closed after each test. Call at the top level of a test file.
 */
export function setupWorkspaceSuite(options: StartOptions = {}): WorkspaceSuite {
  let env: TestServer | undefined;
  const open: HeadlessWorkspace[] = [];
  beforeAll(async () => {
    env = await startTestServer(options);
  });
  afterAll(() => env?.close());
  afterEach(async () => {
    while (open.length) await open.pop()?.close();
  });
  const current = () => {
    if (!env) throw new Error('setupWorkspaceSuite: the test server is not started yet');
    return env;
  };
  return {
    get env() {
      return current();
    },
    workspace(workspaceOptions = {}) {
      const headless = createHeadlessWorkspace({
        baseUrl: current().baseUrl,
        warn: () => {},
        ...workspaceOptions,
      });
      open.push(headless);
      return headless;
    },
  };
}

export const DEMO = { email: 'demo@needl.ai', password: 'demo-password' } as const;

/** A fresh account per test, so change feeds and preferences start empty. */
export const newUser = () => ({
  name: 'Test Researcher',
  email: `researcher-${randomUUID()}@example.com`,
  password: 'correct-horse-battery',
});

/** The server's answers seen from outside the worker (a second client of the same account). */
export async function serverView(baseUrl: string, email: string, password: string) {
  const signIn = await fetch(`${baseUrl}/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (signIn.status !== 200) throw new Error(`serverView: sign-in answered ${signIn.status}`);
  const { id_token: token } = (await signIn.json()) as { id_token: string };
  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { token } });
    if (response.status !== 200) throw new Error(`serverView: ${path} answered ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  const send = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { token, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`serverView: ${path} answered ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  return {
    get,
    send,
    async changes(): Promise<Change[]> {
      const page = (await get('/sync/changes?after=0&limit=500')) as { changes: Change[] };
      return page.changes;
    },
  };
}

/** Holds answers back until it opens. */
export function createGate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

type Verdict = 'offline' | 'lose-response' | Response | { hold: Promise<void> } | null;
type Rule = (url: string, init: RequestInitLike) => Verdict;

/** A request that reached the server through the faulty fetch; `body` when it was text. */
export type SentRequest = { method: string; path: string; body?: string };

/**
 * Node's fetch with a switchable fault: `offline` fails every request before it leaves;
 * `rule` picks per request: 'offline', 'lose-response' (the server gets and applies it, the
 * answer is lost on the way back), a canned Response, `{ hold: promise }` (the server answers
 * at once, the worker hears only once the promise resolves; `held` counts such answers), or
 * null to pass through. `sent` and `requests` list what reached the server.
 */
export function createFaultyFetch() {
  const state = {
    offline: false,
    rule: null as Rule | null,
    sent: [] as string[],
    requests: [] as SentRequest[],
    held: 0,
  };
  const fetch: FetchLike = async (url, init) => {
    const verdict = state.offline ? 'offline' : (state.rule?.(url, init) ?? null);
    if (verdict === 'offline') throw new TypeError('fetch failed (offline)');
    if (verdict instanceof Response) return verdict;
    const path = new URL(url).pathname;
    state.sent.push(`${init.method} ${path}`);
    const body = typeof init.body === 'string' ? init.body : undefined;
    state.requests.push({ method: init.method, path, ...(body === undefined ? {} : { body }) });
    const response = await nodeFetch(url, init);
    if (verdict === 'lose-response') {
      await response.text();
      throw new TypeError('fetch failed (connection reset)');
    }
    if (verdict && 'hold' in verdict) {
      const text = await response.text();
      state.held += 1;
      await verdict.hold;
      return responseOf(response.status, text);
    }
    return response;
  };
  return { fetch, state };
}

/** The debug logs that reached the server with `event`, from a faulty fetch's requests. */
export const logsWith = (requests: SentRequest[], event: string) =>
  requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path.endsWith('/debug-logs') &&
      (JSON.parse(r.body ?? '{}') as { logData?: { event?: string } }).logData?.event === event,
  );

/** A second connection to a headless workspace's IndexedDB mirror, to look at what it holds. */
export const mirrorOf = (ws: HeadlessWorkspace): Promise<Mirror<string>> => ws.openMirror();

/** Creates an account on the server without any worker (a person who exists elsewhere). */
export async function createAccount(baseUrl: string, user: ReturnType<typeof newUser>) {
  const response = await fetch(`${baseUrl}/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (response.status !== 201)
    throw new Error(`createAccount: sign-up answered ${response.status}`);
}

export const errorResponse = (status: number, error: string, message: string) =>
  new Response(JSON.stringify({ error, message }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
