import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerInput, RetrievedPassage } from '../../server/assistant/answerer';
import { createOpenAiAnswerer } from '../../server/assistant/openai';
import type { QuestionAnalysis } from '../../server/assistant/question';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';

const passage = (n: number, title: string, text: string): RetrievedPassage => ({
  n,
  document_id: `doc-${n}`,
  title,
  source_label: 'Newswire',
  unix: 1_700_000_000, // 2023-11-14
  start: 100,
  end: 100 + text.length,
  text,
  score: 1,
  // News: a document of no one (search/entities.ts).
  entity: null,
});

const PASSAGES = [
  passage(
    1,
    'Tata Motors Q2 results',
    'Tata Motors reported net profit up 12% on strong demand for electric vehicles.',
  ),
  passage(
    2,
    'Infosys wins deal',
    'Infosys signed a five year banking contract with a European lender.',
  ),
];

/**
 * "How did Tata Motors do?" as question.ts reads it against an index that has no filer of that
 * name: an organisation it does not know, no term to hold, no figure asked for. Only passages of
 * documents of no one that name Tata Motors may answer (evidence.ts passageFits).
 */
const TATA: QuestionAnalysis = {
  question: 'How did Tata Motors do?',
  entities: [],
  unknown: ['Tata Motors'],
  groups: [],
  soft: [],
  figure: null,
  searchWords: [],
};

const input = (over: Partial<AnswerInput> = {}): AnswerInput => ({
  question: 'How did Tata Motors do?',
  analysis: TATA,
  passages: PASSAGES,
  history: [],
  signal: new AbortController().signal,
  now: Date.UTC(2024, 2, 3),
  ...over,
});

let fake: FakeOpenAi | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const start = async (script: Parameters<typeof startFakeOpenAi>[0]['script']) => {
  fake = await startFakeOpenAi({ script });
  return fake;
};

describe('the OpenAI-compatible answerer', () => {
  it('sends the numbered passages and the history in one streamed request', async () => {
    const server = await start({ reply: 'Tata Motors net profit rose 12% [1].' });
    const answerer = createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm1', apiKey: 'k' });
    await answerer.answer(
      input({ history: [{ prompt: 'Any news on Infosys?', answer: 'It won a deal [2].' }] }),
      { chunk: () => undefined },
    );
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer k');
    expect(req.body).toMatchObject({ model: 'm1', stream: true });
    const messages = req.body.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages.slice(1).map((m) => m.content)).toEqual([
      'Any news on Infosys?',
      'It won a deal.',
      'How did Tata Motors do?',
    ]);
    const system = messages[0].content;
    expect(system).toContain('Today is 2024-03-03.');
    expect(system).toContain(
      '[1] Tata Motors Q2 results\nSource: Newswire. Published: 2023-11-14.\n' +
        'Tata Motors reported net profit up 12% on strong demand for electric vehicles.',
    );
    // Issue 16: a passage that is not about the organisation asked about is never offered to
    // the model (it names Infosys, not Tata Motors).
    expect(system).not.toContain('Infosys wins deal');
    expect(system).toContain('reply exactly: "I could not find this in your data."');
  });

  it('passes tokens to the sink as they stream, before the model has finished', async () => {
    const reply = 'Tata Motors net profit rose 12% on electric vehicle demand [1]. '.repeat(4);
    const server = await start({ reply, tokenChars: 4, tokensPerSecond: 200, tickMs: 10 });
    const answerer = createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' });
    const chunks: string[] = [];
    const stateAtFirstChunk: string[] = [];
    await answerer.answer(input(), {
      chunk(text) {
        if (chunks.length === 0) stateAtFirstChunk.push(server.requests[0].state);
        chunks.push(text);
      },
    });
    expect(stateAtFirstChunk).toEqual(['streaming']);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(reply);
    expect(server.requests[0].state).toBe('finished');
  });

  it('maps [n] to citations, dropping unsupported and unknown ones from the kept answer', async () => {
    const server = await start({
      reply:
        'Tata Motors grew net profit 12% [1][2]. It also signed a banking contract [1]. Sales beat estimates [9].',
    });
    const result = await createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' }).answer(
      input(),
      { chunk: () => undefined },
    );
    expect(result.answer).toBe(
      'Tata Motors grew net profit 12% [1]. It also signed a banking contract. Sales beat estimates.',
    );
    expect(result.sentences).toEqual([
      {
        sentence: 'Tata Motors grew net profit 12%.',
        cites: [{ n: 1, spans: [{ start: 0, end: 78 }] }],
      },
      { sentence: 'It also signed a banking contract.', cites: [] },
      { sentence: 'Sales beat estimates.', cites: [] },
    ]);
    expect(result.quality).toBe('LOW');
    // Follow-ups (followups.ts, shared with the extractive answerer) lead with the cited document.
    expect(result.followups.at(-1)).toBe('What are the key points of “Tata Motors Q2 results”?');
  });

  it('is GENERATIVE when the answer cites nothing that holds', async () => {
    const server = await start({ reply: 'Electric cars are popular in many countries [2].' });
    const result = await createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' }).answer(
      input(),
      { chunk: () => undefined },
    );
    expect(result.answer).toBe('Electric cars are popular in many countries.');
    expect(result.quality).toBe('GENERATIVE');
  });

  it('fails with the upstream error when the model answers 500', async () => {
    const server = await start({ reply: '', status: 500, errorMessage: 'model overloaded' });
    const chunks: string[] = [];
    await expect(
      createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' }).answer(input(), {
        chunk: (t) => void chunks.push(t),
      }),
    ).rejects.toThrow('The language model answered 500 Internal Server Error: model overloaded');
    expect(chunks).toEqual([]);
  });

  it('fails clearly when the model cannot be reached or its stream breaks off', async () => {
    const server = await start({
      reply: 'Tata Motors net profit rose 12% [1].',
      cutAfterTokens: 3,
    });
    await expect(
      createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' }).answer(input(), {
        chunk: () => undefined,
      }),
    ).rejects.toThrow("The language model's stream broke off (terminated)");
    const closedUrl = server.baseUrl;
    await server.close();
    fake = null;
    await expect(
      createOpenAiAnswerer({ baseUrl: closedUrl, model: 'm' }).answer(input(), {
        chunk: () => undefined,
      }),
    ).rejects.toThrow(/^The language model could not be reached \(.+\)$/);
  });

  it('aborts the upstream request when the signal aborts', async () => {
    const server = await start({ reply: 'word '.repeat(2_000), tokensPerSecond: 100 });
    const controller = new AbortController();
    const chunks: string[] = [];
    const answering = createOpenAiAnswerer({ baseUrl: server.baseUrl, model: 'm' }).answer(
      input({ signal: controller.signal }),
      {
        chunk(text) {
          chunks.push(text);
          if (chunks.length === 2) controller.abort();
        },
      },
    );
    await expect(answering).rejects.toThrow(/aborted/i);
    expect(await server.requests[0].outcome).toBe('aborted');
    expect(server.requests[0].sent).toBeLessThan(2_000);
    expect(chunks).toHaveLength(2);
  });
});
