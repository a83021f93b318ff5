import { serve, type ServerType } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AskAnswer } from '../../contract/assistant';
import type { Answerer } from '../../server/assistant/answerer';
import { registerAskRoute } from '../../server/assistant/ask-route';
import { resolveAuth } from '../../server/auth/resolve';
import type { AppEnv } from '../../server/context';
import { ask, askPath, dataLines, filingsReader, writeFilings } from './assistant-fixture';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

const QUESTION = "What are Nike's risks from foreign currency exchange rates?";
/** The 12 passages retrieved for QUESTION, by the number the answer cites them by. */
const STOPPED_SOURCE_IDS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'];

/** The stored messages of a session, oldest first. */
const messagesOf = (h: Harness, sessionId: string) =>
  h.db
    .selectFrom('assistant_messages')
    .select(['prompt', 'answer', 'status', 'error', 'data'])
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();

/** Serves an app on a free port of this machine. */
const listen = async (fetch: (req: Request) => Response | Promise<Response>) => {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

// Storage-independent: the stream over a socket; storing sessions is assistant-sessions.test.ts's
// subject on every back end.
describe.each(STORAGE_INDEPENDENT)('the ask stream over a connection on %s', (storage) => {
  let h: Harness;
  let token: string;
  let server: ServerType | null = null;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFilings(h);
    ({ token } = await filingsReader(h));
  });
  afterEach(async () => {
    // Idle keep-alive sockets would hold close() for seconds.
    if (server && 'closeAllConnections' in server) server.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
    server = null;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stops the answer when the client closes the connection, keeping what was sent', async () => {
    const served = await listen(h.app.fetch);
    server = served.server;
    const controller = new AbortController();
    const res = await fetch(
      `${served.url}${askPath({ prompt: QUESTION, session_id: 'closed-1' })}`,
      {
        headers: { token },
        signal: controller.signal,
      },
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Read until the answer has begun, then hang up.
    while (!text.includes('"GENERATED_ANSWER"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended first: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    // The question was stored before the answer began; the stop is written over it.
    await vi.waitFor(
      async () =>
        expect((await messagesOf(h, 'closed-1')).map((m) => m.status)).toEqual(['stopped']),
      { timeout: 5_000, interval: 20 },
    );
    const [stopped] = await messagesOf(h, 'closed-1');
    expect(stopped).toMatchObject({ prompt: QUESTION, status: 'stopped', error: null });
    // The sources came before the answer's first chunk, so the stop had them.
    expect(text.indexOf('"SOURCES"')).toBeGreaterThan(-1);
    expect(text.indexOf('"SOURCES"')).toBeLessThan(text.indexOf('"GENERATED_ANSWER"'));
    // The same question answered whole: what was kept is where it stopped, short of the end.
    const done = (await ask(h, token, { prompt: QUESTION })).done!;
    const whole = done.generated_answer.answer;
    expect(whole.startsWith(stopped.answer)).toBe(true);
    expect(stopped.answer.length).toBeGreaterThan(0);
    expect(stopped.answer.length).toBeLessThan(whole.length);
    // The stopped answer keeps its sources: every passage it was reading, numbered as cited,
    // and the documents they came from (the whole answer's citations are among them).
    const kept = JSON.parse(stopped.data!) as AskAnswer;
    expect(kept).toMatchObject({
      answer_type: 'ANSWER',
      message_id: expect.any(String),
      session_id: 'closed-1',
      followup_questions: [],
    });
    const sources = kept.generated_answer.sentences.flatMap((s) => s.citations);
    expect(sources.map((c) => c.id)).toEqual(STOPPED_SOURCE_IDS);
    expect(kept.retrieved_results.map((r) => r.document_id)).toEqual(
      done.retrieved_results.map((r) => r.document_id),
    );
    const byId = new Map(sources.map((c) => [c.id, c.document_id]));
    for (const cited of done.generated_answer.sentences.flatMap((s) => s.citations)) {
      expect(byId.get(cited.id)).toBe(cited.document_id);
    }
  });

  it('ends with an [ERROR] line when the answerer fails, and keeps the message as error', async () => {
    const failing: Answerer = {
      name: 'extractive',
      async answer(input, sink) {
        await sink.chunk('Nike conducts ');
        await sink.chunk(`transactions in ${input.passages.length} passages`);
        throw new Error('the model went away');
      },
    };
    const logs: string[] = [];
    const app = new OpenAPIHono<AppEnv>();
    app.use('/api/*', resolveAuth({ db: h.db, now: () => h.clock.now }));
    registerAskRoute(
      app,
      { product: 'needl', now: () => h.clock.now, log: (l) => logs.push(l) },
      failing,
    );
    const res = await app.request(askPath({ prompt: QUESTION, session_id: 'failing-1' }), {
      headers: { token },
    });
    expect(res.status).toBe(200);
    const lines = dataLines(await res.text());
    expect(lines.slice(-3)).toEqual([
      JSON.stringify({ status: 'GENERATED_ANSWER', data: { answer_chunk: 'Nike conducts ' } }),
      JSON.stringify({
        status: 'GENERATED_ANSWER',
        data: { answer_chunk: 'transactions in 12 passages' },
      }),
      '[ERROR] Something went wrong while answering. Please try again.',
    ]);
    expect(await messagesOf(h, 'failing-1')).toEqual([
      {
        prompt: QUESTION,
        answer: 'Nike conducts transactions in 12 passages',
        status: 'error',
        error: 'Something went wrong while answering. Please try again.',
        data: null,
      },
    ]);
    // The detail is logged, never sent.
    expect(logs.some((l) => l.includes('the model went away'))).toBe(true);
  });
});
