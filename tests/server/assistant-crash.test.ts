import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answerer } from '../../server/assistant/answerer';
import { registerAskRoute } from '../../server/assistant/ask-route';
import { resolveAuth } from '../../server/auth/resolve';
import type { AppEnv } from '../../server/context';
import { ask, askPath } from './assistant-fixture';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/**
 * A server that dies while an answer streams (issue 17: kill -9 left the session with its
 * title and no messages). The dying server is simulated in-process on the same database: its
 * clock stops at the question, and its answerer writes a few words and never finishes (a dead
 * process neither finishes nor says it is alive again). A fresh app on that database then
 * reads the session: the question is there, its answer stopped with what had been streamed.
 */

const QUESTION = 'What happened to revenue?';
const STREAMED = 'Revenue grew';
/** sessions.ts ANSWER_LEASE_MS, and a second more. */
const PAST_THE_LEASE = 21_000;

const waitFor = async <T>(what: string, check: () => Promise<T | null | undefined | false>) => {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.each(STORAGE_INDEPENDENT)('a server that dies answering, on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('leaves the question, its answer stopped with what was streamed', async () => {
    const token = (await h.signUp()).session.id_token;
    const askedAt = h.clock.now;

    let release: () => void = () => undefined;
    const never = new Promise<void>((resolve) => (release = resolve));
    const answerer: Answerer = {
      name: 'extractive',
      async answer(_input, sink) {
        await sink.chunk(STREAMED);
        await never;
        throw new Error('the test is over');
      },
    };
    const dying = new OpenAPIHono<AppEnv>();
    dying.use('/api/*', resolveAuth({ db: h.db, now: () => askedAt }));
    registerAskRoute(
      dying,
      { product: 'needl', now: () => askedAt, log: () => undefined },
      answerer,
    );

    const res = await dying.request(askPath({ prompt: QUESTION, session_id: 'crash-1' }), {
      headers: { token },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('GENERATED_ANSWER')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended: ${text}`);
      text += new TextDecoder().decode(value);
    }

    const read = () => h.call('GET', '/ml/ask-needl/sessions/crash-1', { token });
    // While its server may still be answering, the exchange is its stream's to deliver.
    h.clock.now = askedAt + 1_000;
    const live = await read();
    expect(live.status).toBe(200);
    expect(live.body.title).toBe(QUESTION);
    expect(live.body.state.messages).toEqual([]);

    // Past the lease its server is taken for dead: the question is there, the answer stopped
    // with what the last sign of life had kept (the server says it is alive every 5 s).
    h.clock.now = askedAt + PAST_THE_LEASE;
    const messages = await waitFor('the streamed words to be kept', async () => {
      const { body } = await read();
      return body.state.messages[0]?.answer === STREAMED ? body.state.messages : null;
    });
    expect(messages).toEqual([
      {
        id: expect.any(String),
        prompt: QUESTION,
        mode: 'answer',
        answer: STREAMED,
        data: null,
        status: 'stopped',
        error: null,
        feedback: null,
        created_at: '2025-03-03T10:00:00.000Z',
      },
    ]);

    // The session goes on: the next question is answered after it.
    const next = await ask(h, token, { prompt: 'And costs?', session_id: 'crash-1' });
    expect(next.done).not.toBeNull();
    const after = await read();
    expect(
      after.body.state.messages.map((m: { prompt: string; status: string }) => [
        m.prompt,
        m.status,
      ]),
    ).toEqual([
      [QUESTION, 'stopped'],
      ['And costs?', 'done'],
    ]);

    // Let the stalled run end (stopped: its reader went away) before the database closes.
    await reader.cancel();
    release();
    await waitFor('the stalled run to end', async () => {
      const row = await h.db
        .selectFrom('assistant_messages')
        .select('status')
        .where('prompt', '=', QUESTION)
        .executeTakeFirst();
      return row?.status === 'stopped';
    });
  }, 60_000);
});
