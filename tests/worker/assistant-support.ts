import { randomUUID } from 'node:crypto';
import type { Chat, ChatBotMessage, ChatUpdate } from '../../contract/assistant';
import type { WorkerEvent } from '../../contract/worker-api';
import type { FetchLike } from '../../worker/deps';
import type { HeadlessTab, HeadlessWorkspace } from '../../worker/headless';
import type { ManualClock } from '../../worker/testing';
import { serverDocs } from './feed-support';
import { createFaultyFetch, newUser, type TestServer, type WorkspaceSuite } from './support';

/** The assistant tests' documents, users and request log (tests/worker/assistant*.test.ts). */

export const WIRE = 'demo_markets_wire';
export const ASK = '/api/ml/ask-needl';
export const T0 = 1_717_200_000;

/** News items about quokkas only these tests' questions ask about. */
export const QUOKKA_DOCS = [
  {
    dedupe_key: 'quokka-diet',
    title: 'Quokka diet study',
    text:
      'Quokkas eat leaves, grasses and succulent plants on Rottnest Island. ' +
      'Researchers found that quokkas can survive long periods without drinking water. ' +
      'The island ferry timetable changed in June.',
  },
  {
    dedupe_key: 'quokka-census',
    title: 'Quokka census results',
    text:
      'The annual census counted about 12,000 quokkas on Rottnest Island. ' +
      'Quokka numbers on the mainland remain low because of foxes and cats.',
  },
].map((d, i) => ({
  ...d,
  url: `https://news.example.com/${d.dedupe_key}`,
  unix: T0 + i * 60,
  html: `<p>${d.text}</p>`,
}));

export async function insertQuokkaDocs(env: TestServer) {
  const docs = await serverDocs(env);
  await docs.insert(WIRE, QUOKKA_DOCS);
  await docs.close();
}

/**
 * The faulty fetch (support.ts), logging the query of every question asked (`asked`) and
 * counting those that reached the server (`asks`).
 */
export function askNet() {
  const net = createFaultyFetch();
  const asked: URLSearchParams[] = [];
  const fetch: FetchLike = (url, init) => {
    const parsed = new URL(url);
    if (parsed.pathname === ASK) asked.push(parsed.searchParams);
    return net.fetch(url, init);
  };
  const asks = () => net.state.requests.filter((r) => r.method === 'GET' && r.path === ASK);
  return { ...net, fetch, asked, asks };
}

/** A new user following the wire, in a workspace whose requests are logged. */
export async function askingUser(suite: WorkspaceSuite, clock?: ManualClock) {
  const net = askNet();
  const ws = suite.workspace({ fetch: net.fetch, ...(clock ? { clock } : {}) });
  const tab = await ws.tab('tab-a');
  const user = newUser();
  await tab.api.call('auth.signUp', user);
  await tab.api.call('sources.followMany', { keys: [WIRE] });
  return { ws, tab, net, user };
}

export const ALL = { searchWithin: 'all', currentFeedOrDocumentId: 'home' } as const;

export const askEvents = (tab: HeadlessTab, since = 0) =>
  tab.events
    .slice(since)
    .filter((e): e is Extract<WorkerEvent, { type: 'ask' }> => e.type === 'ask');

export const patches = (tab: HeadlessTab, since = 0) =>
  askEvents(tab, since).flatMap((e) => (e.update.kind === 'patch' ? [e.update] : []));

/** An 'ask' patch of `messageId` in `phase`. */
export const patchIn =
  (messageId: string, ...phases: ChatBotMessage['phase'][]) =>
  (e: WorkerEvent) =>
    e.type === 'ask' &&
    e.update.kind === 'patch' &&
    e.update.messageId === messageId &&
    phases.includes(e.update.phase);

const ENDED = ['done', 'stopped', 'error'];

/** An 'ask' patch carrying a title. */
export const titlePatch = (e: WorkerEvent) =>
  e.type === 'ask' && e.update.kind === 'patch' && e.update.title !== undefined;

/**
 * A chat with its updates applied, as a tab keeps it (a patch not following on throws);
 * `streaming` while some answer has not ended.
 */
export function applyUpdates(chat: Chat, updates: ChatUpdate[]): Chat {
  let now = chat;
  for (const update of updates) {
    if (update.kind === 'reset') {
      now = update.chat;
      continue;
    }
    const { messageId, append, length, kind: _kind, title, ...fields } = update;
    now = {
      ...now,
      ...(title === undefined ? {} : { title }),
      messages: now.messages.map((m) => {
        if (m.type !== 'bot' || m.id !== messageId) return m;
        const text = m.streamingAnswer + append;
        if (text.length !== length) throw new Error(`patch length ${length} after ${text.length}`);
        const { steps, ...rest } = fields;
        return {
          ...m,
          ...rest,
          streamingAnswer: text,
          ...(steps ? { intermediateSteps: steps } : {}),
        };
      }),
    };
    now.streaming = now.messages.some((m) => m.type === 'bot' && !ENDED.includes(m.phase));
  }
  return now;
}

export const botOf = (chat: Chat, id: string) =>
  chat.messages.find((m): m is ChatBotMessage => m.type === 'bot' && m.id === id);

const encoder = new TextEncoder();

/**
 * A server-sent event stream the test writes: a canned answer to GET /ml/ask-{product}. It
 * hands the reader one event per read, so each `event` resolves once the worker has taken
 * its event and asks for the next (or stopped reading): what the event does has been done.
 */
export function scriptedStream() {
  let cancelled = false;
  let reading: (() => void) | null = null;
  let readWaiter: (() => void) | null = null;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Resolves when the worker is waiting for a chunk (or has stopped reading). */
  const nextRead = () =>
    new Promise<void>((resolve) => {
      if (reading || cancelled) resolve();
      else readWaiter = resolve;
    });
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        controller = c;
        return new Promise<void>((release) => {
          reading = release;
          readWaiter?.();
          readWaiter = null;
        });
      },
      cancel() {
        cancelled = true;
        readWaiter?.();
      },
    },
    { highWaterMark: 0 },
  );
  const send = async (write: () => void, last = false) => {
    await nextRead();
    if (cancelled) return;
    const release = reading!;
    reading = null;
    write();
    release();
    if (!last) await nextRead();
  };
  return {
    response: () =>
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    event: (data: unknown) =>
      send(() => {
        const text = typeof data === 'string' ? data : JSON.stringify(data);
        controller.enqueue(encoder.encode(`data: ${text}\n\n`));
      }),
    /** Closes the stream (the reader then reads its end: there is no next read to wait for). */
    end: () => send(() => controller.close(), true),
    cancelled: () => cancelled,
  };
}

/** The same account on another device: renames and deletes sessions through the API. */
export async function otherDevice(env: TestServer, user: { email: string; password: string }) {
  const signIn = await fetch(`${env.baseUrl}/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const { id_token: token } = (await signIn.json()) as { id_token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${env.baseUrl}${path}`, {
      method,
      headers: { token, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return {
    session: (id: string) => call('GET', `/ml/ask-needl/sessions/${id}`),
    rename: (id: string, title: string) => call('PUT', `/ml/ask-needl/sessions/${id}`, { title }),
    delete: (id: string) => call('DELETE', `/ml/ask-needl/sessions/${id}`),
  };
}

/** Asks in `tab` (watching the chat), waits for the end and for the chat to be kept. */
export async function askAndWait(
  ws: HeadlessWorkspace,
  tab: HeadlessTab,
  prompt: string,
  sessionId?: string,
) {
  const asked = await tab.api.call('ask.send', { prompt, scope: ALL, sessionId });
  await tab.api.call('ask.watch', { sessionId: asked.sessionId });
  await tab.waitFor(patchIn(asked.messageId, 'done', 'error', 'stopped'));
  await ws.workspace.idle();
  const chat = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
  return { ...asked, chat, bot: botOf(chat, asked.messageId)! };
}
