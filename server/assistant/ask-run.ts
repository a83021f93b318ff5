import type { AskAnswer, AskEvent, AskQuery, AskSources, AskStep } from '../../contract/assistant';
import type { Db } from '../db/schema';
import { searchHandle } from '../search';
import type { Answerer } from './answerer';
import type { AskTarget } from './ask-scope';
import { citationOf, citedSentences, regionsOf, searchResultOf } from './citations';
import { retrieve } from './retrieve';
import { searchMatches } from './search-mode';
import { sessionHistory, type SessionRow } from './sessions';
import { contentWords, MAX_QUERY_WORDS } from './words';

/**
 * One question's work once the stream is open: the steps as they happen (each
 * INTERMEDIATE_STEP carries every step so far), then the answer (SOURCES, GENERATED_ANSWER
 * chunks as the answerer writes them, GENERATING_CITATIONS) or the search's results; it resolves with
 * DONE's data, which the route sends once the message is stored.
 */
export type AskRun = {
  db: Db;
  product: string;
  now: () => number;
  query: AskQuery;
  target: AskTarget;
  session: SessionRow;
  messageId: string;
  answerer: Answerer;
  signal: AbortSignal;
  emit(event: AskEvent): Promise<void>;
  /**
   * The answer's text as streamed so far, and the sources sent (SOURCES): what a stopped or
   * failed message keeps.
   */
  written: { text: string; sources?: AskSources };
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const QUOTE_CHARS = 80;
const quoted = (s: string) =>
  `“${s.length > QUOTE_CHARS ? `${s.slice(0, QUOTE_CHARS).trimEnd()}…` : s}”`;

const stopIfAborted = (signal: AbortSignal) => {
  if (signal.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
};

/** Steps in the order taken; each call adds or updates some and sends them all. */
function stepsOf(emit: AskRun['emit']) {
  const steps: AskStep[] = [];
  return async (...changed: AskStep[]) => {
    for (const step of changed) {
      const at = steps.findIndex((s) => s.id === step.id);
      if (at >= 0) steps[at] = step;
      else steps.push(step);
    }
    await emit({ status: 'INTERMEDIATE_STEP', data: { steps: steps.map((s) => ({ ...s })) } });
  };
}

/** The first step: where, and for which words of the question (stop words left out). */
const searching = (run: AskRun, loading: boolean): AskStep => {
  const words = contentWords(run.query.prompt).slice(0, MAX_QUERY_WORDS);
  return {
    id: 'search',
    text: words.length
      ? `Searching ${run.target.label} for ${quoted(words.join(' '))}`
      : `Searching ${run.target.label}: ${quoted(run.query.prompt)} has no words to search for`,
    loading,
  };
};

/** An answer: passages retrieved in the scope, the answerer's text, citations. */
export async function runAnswer(run: AskRun): Promise<AskAnswer> {
  const step = stepsOf(run.emit);
  const { prompt } = run.query;
  await step(searching(run, true));
  // Retrieval's statements take turns with every other request (search/yielding.ts).
  const found = await retrieve(searchHandle(run.db), run.target, prompt, run.signal);
  await step(searching(run, false), {
    id: 'read',
    text: `Read ${plural(found.passages.length, 'passage')} from ${plural(found.documents.size, 'document')}`,
    loading: false,
  });
  const history = await sessionHistory(run.db, run.session.id);
  // Page boxes of the cited passages of uploaded PDFs (document_highlight).
  const regions = await regionsOf(run.db, run.product, found.documents.values());
  const channel = run.query.channel_id ?? null;
  // What the answer draws on, before it starts: a stopped answer keeps these as its sources.
  const sources: AskSources = {
    citations: found.passages.flatMap((p) => {
      const doc = found.documents.get(p.document_id);
      return doc ? [citationOf(run.product, p, doc, [], channel, regions.get(doc.id))] : [];
    }),
    // What a reader of the documents read needs: their snippets and the spans these mark.
    retrieved_results: [...found.documents.values()].map((d) =>
      searchResultOf(d, found.expr, { highlights: 3, spans: 20 }),
    ),
  };
  stopIfAborted(run.signal);
  run.written.sources = sources;
  await run.emit({ status: 'SOURCES', data: sources });
  const result = await run.answerer.answer(
    {
      question: prompt,
      analysis: found.analysis,
      passages: found.passages,
      history,
      signal: run.signal,
      now: run.now(),
    },
    {
      chunk: async (text) => {
        run.written.text += text;
        await run.emit({ status: 'GENERATED_ANSWER', data: { answer_chunk: text } });
      },
    },
  );
  await run.emit({ status: 'GENERATING_CITATIONS', data: {} });
  return {
    answer_type: 'ANSWER',
    retrieved_results: sources.retrieved_results,
    generated_answer: {
      answer: result.answer,
      sentences: citedSentences(
        run.product,
        result.sentences,
        found.passages,
        found.documents,
        channel,
        regions,
      ),
    },
    followup_questions: result.followups,
    message_id: run.messageId,
    answer_quality: result.quality,
    session_id: run.session.id,
  };
}

/** Search mode: the matching documents of the scope with highlights, and a one-line summary. */
export async function runSearch(run: AskRun): Promise<AskAnswer> {
  const step = stepsOf(run.emit);
  const { prompt } = run.query;
  await step(searching(run, true));
  const found = await searchMatches(run.db, run.target, prompt);
  stopIfAborted(run.signal);
  const count = `${found.exact ? '' : 'about '}${plural(found.total, 'result')}`;
  await step(searching(run, false), {
    id: 'found',
    text: found.total
      ? `Found ${count}${found.anyWord ? ' holding some of the words' : ''}`
      : 'Found no results',
    loading: false,
  });
  const summary = found.total
    ? `Found ${count} for ${quoted(prompt)} in ${run.target.label}.`
    : 'No search results found.';
  run.written.text = summary;
  await run.emit({ status: 'GENERATED_ANSWER', data: { answer_chunk: summary } });
  return {
    answer_type: 'SEARCH',
    retrieved_results: found.documents.map((d) => searchResultOf(d, found.expr)),
    generated_answer: { answer: summary, sentences: [] },
    followup_questions: [],
    message_id: run.messageId,
    answer_quality: 'HIGH',
    session_id: run.session.id,
  };
}
