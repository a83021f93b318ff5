import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskEvent, type AskAnswer } from '../../contract/assistant';
import type { Session } from '../../contract/auth';
import { startServer, type RunningServer } from '../../server/start';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiRequest } from '../support/fake-openai';

/**
 * The ask stream through the real server configured with LLM_BASE_URL pointing at a local
 * OpenAI-compatible server: the model's tokens arrive as GENERATED_ANSWER events, and DONE
 * keeps only the citations its passages support.
 */

/** The first sentence of passage [1] in the system prompt, verbatim. */
const firstSentenceOf1 = (req: FakeOpenAiRequest): string => {
  const system = req.body.messages?.[0]?.content ?? '';
  const block = /\n\[1\] [^\n]*\n[^\n]*\n([^\n]+)/.exec(system)?.[1] ?? '';
  return /^.*?[.!?](?=\s|$)/.exec(block)?.[0] ?? block;
};

const UNSUPPORTED = 'The moon is made of green cheese and orbits quickly.';

let dir = '';
let fake: FakeOpenAi;
let server: RunningServer;
let token = '';

beforeAll(async () => {
  fake = await startFakeOpenAi({
    script: {
      reply: (req) => `${firstSentenceOf1(req)} [1]\n\n${UNSUPPORTED} [1]`,
      tokensPerSecond: 400,
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'assistant-openai-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    ingest: false,
    log: () => undefined,
    llm: { baseUrl: fake.baseUrl, model: 'test-model', apiKey: 'test-key' },
  });
  const res = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
  });
  token = ((await res.json()) as Session).id_token;
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/ml/ask-needl with a model configured', () => {
  it('streams the model tokens as GENERATED_ANSWER and keeps only supported citations', async () => {
    const query = new URLSearchParams({ prompt: 'What happened to revenue?', stream: 'true' });
    const res = await fetch(`${server.url}/api/ml/ask-needl?${query}`, { headers: { token } });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice('data: '.length));
    const events = lines.map((l) => AskEvent.parse(JSON.parse(l)));

    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.body.model).toBe('test-model');
    expect(req.headers.authorization).toBe('Bearer test-key');
    const cited = firstSentenceOf1(req);
    expect(cited.length).toBeGreaterThan(20);

    const statuses = events.map((e) => e.status);
    expect(statuses.at(-2)).toBe('GENERATING_CITATIONS');
    expect(statuses.at(-1)).toBe('DONE');
    const chunks = events.flatMap((e) =>
      e.status === 'GENERATED_ANSWER' ? [e.data.answer_chunk] : [],
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(`${cited} [1]\n\n${UNSUPPORTED} [1]`);

    const done = events.at(-1)?.data as AskAnswer;
    expect(done.generated_answer.answer).toBe(`${cited} [1]\n\n${UNSUPPORTED}`);
    const sentences = done.generated_answer.sentences.map((s) => ({
      sentence: s.sentence,
      ids: s.citations.map((c) => c.id),
    }));
    expect(sentences.at(-1)).toEqual({ sentence: UNSUPPORTED, ids: [] });
    const first = done.generated_answer.sentences.find((s) => s.citations.length > 0);
    expect(first?.citations.map((c) => c.id)).toEqual(['1']);
    // The citation is passage [1] of the prompt, its highlight the sentence the model quoted.
    const citation = first!.citations[0];
    expect(req.body.messages?.[0]?.content).toContain(`[1] ${citation.title_label}\n`);
    const marked = citation.highlight_indexes.map((s) => citation.context.slice(s.start, s.end));
    expect(marked).toEqual([cited]);
    // Issue 16: the unsupported sentence is left uncited, so the answer is not HIGH.
    expect(done.answer_quality).toBe('LOW');
  });

  it('ends the stream with an [ERROR] line when the model fails', async () => {
    fake.setScript({ reply: '', status: 503, errorMessage: 'overloaded' });
    const query = new URLSearchParams({ prompt: 'What happened to revenue?' });
    const res = await fetch(`${server.url}/api/ml/ask-needl?${query}`, { headers: { token } });
    const lines = (await res.text()).split('\n').filter((l) => l.startsWith('data: '));
    expect(lines.at(-1)).toBe(
      'data: [ERROR] Something went wrong while answering. Please try again.',
    );
  });

  it('aborts the request to the model when the client goes away', async () => {
    fake.setScript({ reply: 'Revenue grew. '.repeat(2_000), tokensPerSecond: 200 });
    const before = fake.requests.length;
    const client = new AbortController();
    const query = new URLSearchParams({ prompt: 'What happened to revenue?' });
    const res = await fetch(`${server.url}/api/ml/ask-needl?${query}`, {
      headers: { token },
      signal: client.signal,
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('GENERATED_ANSWER')) seen += (await reader.read()).value ?? '';
    client.abort();
    const upstream = fake.requests[before];
    expect(await upstream.outcome).toBe('aborted');
    expect(upstream.sent).toBeLessThan(7_000);
  });
});
