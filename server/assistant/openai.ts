import { eventJson, readEventStream } from '../../contract/event-stream';
import type { LlmConfig } from '../context';
import type { AnswerInput, Answerer, AnswerSink, RetrievedPassage } from './answerer';
import { bestEvidence, passageFits } from './evidence';
import { NOT_FOUND } from './extractive';
import { followupsFor } from './followups';
import { verifyAnswer } from './openai-verify';
import { answerUnits } from './sentences';
import { questionTerms } from './words';

/**
 * The OpenAI-compatible answerer (LLM_BASE_URL): one streamed chat completion over the
 * numbered passages. Tokens go to the sink as they arrive, and the finished text is checked citation by citation (openai-verify.ts) before it
 * is kept. Works with any server speaking POST /chat/completions with `stream: true` (OpenAI,
 * vLLM, llama.cpp, Ollama's /v1).
 */

export type OpenAiAnswererOptions = LlmConfig & {
  /** Injected for tests; the global fetch by default. */
  fetch?: typeof fetch;
};

/** Earlier exchanges sent with a question at most, and each answer's length in them. */
const HISTORY_EXCHANGES = 6;
const HISTORY_ANSWER_CHARS = 4_000;
/** An error body is read this far for its message. */
const ERROR_BODY_CHARS = 2_000;

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

const isoDay = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

/** The instructions and the passages, numbered as the citations will be. */
export function systemPrompt(passages: RetrievedPassage[], now: number): string {
  const listed = passages
    .map(
      (p) =>
        `[${p.n}] ${p.title}\nSource: ${p.source_label}. Published: ${isoDay(p.unix)}.\n${p.text.trim()}`,
    )
    .join('\n\n');
  return [
    `You answer questions using only the numbered passages below, taken from the user's documents. Today is ${isoDay(now / 1000)}.`,
    'Write the answer in markdown: a short lead, then paragraphs or bullet points when they help.',
    'After each sentence, cite the passages that say what it says with their numbers in square brackets, such as [2] or [1][3]. Cite only passages that state it; never cite a number that is not listed.',
    `If the passages do not answer the question, reply exactly: "${NOT_FOUND}" Do not use knowledge from outside the passages.`,
    '',
    passages.length ? `Passages:\n\n${listed}` : 'Passages: none were found.',
  ].join('\n');
}

/**
 * The conversation sent: the instructions, the latest earlier exchanges (their `[n]` markers
 * out: they numbered other passages), then the question.
 */
export function chatMessages(input: AnswerInput): ChatMessage[] {
  const earlier = input.history.slice(-HISTORY_EXCHANGES).flatMap((h): ChatMessage[] => [
    { role: 'user', content: h.prompt },
    {
      role: 'assistant',
      content: h.answer
        .replace(/\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\]/g, '')
        .slice(0, HISTORY_ANSWER_CHARS),
    },
  ]);
  return [
    { role: 'system', content: systemPrompt(input.passages, input.now) },
    ...earlier,
    { role: 'user', content: input.question },
  ];
}

/** The message of an error answer: the body's `error.message` when it has one. */
async function upstreamError(res: Response): Promise<Error> {
  let detail = '';
  try {
    const body = (await res.text()).slice(0, ERROR_BODY_CHARS);
    try {
      const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
      const e = parsed.error;
      detail = typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : body;
    } catch {
      detail = body;
    }
  } catch {
    // The body is lost; the status still says what happened.
  }
  const status = `${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  return new Error(`The language model answered ${status}${detail ? `: ${detail.trim()}` : ''}`);
}

type StreamDelta = {
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
  error?: { message?: unknown };
};

/**
 * Streams the completion's text to `sink` and answers all of it. Aborting `signal` aborts the
 * upstream request (the model stops generating) and rejects with the signal's reason.
 */
async function streamCompletion(
  opts: OpenAiAnswererOptions,
  messages: ChatMessage[],
  signal: AbortSignal,
  sink: AnswerSink,
): Promise<string> {
  const doFetch = opts.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(`${opts.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: opts.model, stream: true, temperature: 0.2, messages }),
      signal,
    });
  } catch (err) {
    signal.throwIfAborted();
    const cause = err instanceof Error ? ((err.cause as Error | undefined) ?? err) : null;
    throw new Error(`The language model could not be reached (${cause?.message ?? String(err)})`);
  }
  if (!res.ok) throw await upstreamError(res);
  if (!res.body) throw new Error('The language model answered without a body');

  const events = readEventStream(res.body, { signal });
  /** The next event; a read that fails is the stream breaking off (or the abort). */
  const next = () =>
    events.next().catch((err: unknown) => {
      signal.throwIfAborted();
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`The language model's stream broke off (${why})`);
    });
  let text = '';
  // Servers that close without [DONE] still say the choice finished; otherwise it was cut.
  let finished = false;
  try {
    for (let event = await next(); !event.done; event = await next()) {
      const { data } = event.value;
      if (data === '[DONE]') return text;
      const parsed = eventJson(data);
      if (typeof parsed !== 'object' || parsed === null) {
        throw new Error('The language model sent an event that is not JSON');
      }
      const delta = parsed as StreamDelta;
      if (delta.error) {
        const message = typeof delta.error.message === 'string' ? delta.error.message : 'error';
        throw new Error(`The language model failed: ${message}`);
      }
      const choice = delta.choices?.[0];
      const piece = choice?.delta?.content;
      if (typeof piece === 'string' && piece) {
        text += piece;
        await sink.chunk(piece);
      }
      if (choice?.finish_reason) finished = true;
    }
  } finally {
    // After [DONE] (or a failure) the rest of the body is not wanted: release the connection.
    await events.return();
  }
  if (!finished) throw new Error("The language model's stream ended before [DONE]");
  return text;
}

export function createOpenAiAnswerer(opts: OpenAiAnswererOptions): Answerer {
  return {
    name: 'openai',
    async answer(input, sink) {
      // The extractive answerer's rule, before any model is asked: only passages that may be
      // cited for the organisations named are sent, and when no sentence of them holds what is
      // asked (and the figure asked for), the answer is the decline, with nothing cited.
      const fits = (p: RetrievedPassage) => passageFits(input.analysis, p);
      const passages = input.passages.filter(fits);
      const evidence = bestEvidence(input.analysis, passages, answerUnits);
      if (!evidence.eligible) {
        await sink.chunk(NOT_FOUND);
        return { answer: NOT_FOUND, sentences: [], quality: 'LOW', followups: [] };
      }
      const text = await streamCompletion(
        opts,
        chatMessages({ ...input, passages }),
        input.signal,
        sink,
      );
      const verified = verifyAnswer(text, passages, fits);
      // HIGH also needs a passage cited that states what was asked about the organisation.
      const citedPassages = passages.filter((p) =>
        verified.sentences.some((s) => s.cites.some((c) => c.n === p.n)),
      );
      if (
        verified.quality === 'HIGH' &&
        !bestEvidence(input.analysis, citedPassages, answerUnits).strong
      ) {
        verified.quality = 'LOW';
      }
      // Follow-ups as the extractive answerer makes them (no second request to the model):
      // from the cited passages, in the order the answer cites them.
      const cited = [...new Set(verified.sentences.flatMap((s) => s.cites.map((c) => c.n)))]
        .map((n) => input.passages.find((p) => p.n === n))
        .filter((p): p is RetrievedPassage => !!p);
      const followups = followupsFor(
        input.question,
        questionTerms(input.question),
        cited,
        input.passages,
      );
      return { ...verified, followups };
    },
  };
}
