import type { AnswerQuality, TextSpan } from '../../contract/assistant';
import type { QuestionAnalysis } from './question';

/**
 * The answerers (extractive.ts, openai.ts) behind one interface: given the question and the
 * passages retrieved within the scope, numbered 1..n, stream the answer's markdown through
 * `sink.chunk` as it is written and resolve with its sentences and what each cites. The route
 * (ask-route.ts) turns a cited passage into a full Citation and sends the events.
 */

/** One retrieved passage as the answerers see it. */
export type RetrievedPassage = {
  /** Its number in the answer: `[n]` cites it. */
  n: number;
  document_id: string;
  title: string;
  source_label: string;
  /** Published, unix seconds. */
  unix: number;
  /** [start, end) of the passage in the document's plain text. */
  start: number;
  end: number;
  /** The passage's text (plain_text.slice(start, end)). */
  text: string;
  score: number;
  /** Its document's filer (search/entities.ts key), null for a document of no one. */
  entity: string | null;
};

export type AnswerInput = {
  question: string;
  /** What the question asks (question.ts): its organisations, terms and figure. */
  analysis: QuestionAnalysis;
  passages: RetrievedPassage[];
  /** The earlier exchanges of the session, oldest first (follow-up questions). */
  history: Array<{ prompt: string; answer: string }>;
  /** Aborted when the client goes away or stops: stop writing and resolve or reject soon. */
  signal: AbortSignal;
  /** Unix ms (for "today" in prompts). */
  now: number;
};

export type AnswerSink = {
  /** A piece of the answer's markdown, in order; awaited (back-pressure). */
  chunk(text: string): Promise<void> | void;
};

/** A sentence of the answer and the passages that support it. */
export type AnsweredSentence = {
  sentence: string;
  /** Cited passages: their number and the spans of the passage's text that support it. */
  cites: Array<{ n: number; spans: TextSpan[] }>;
};

export type AnswerResult = {
  /** The whole answer's markdown as it should be kept ([n] markers of dropped citations gone). */
  answer: string;
  sentences: AnsweredSentence[];
  quality: AnswerQuality;
  followups: string[];
};

export interface Answerer {
  readonly name: 'extractive' | 'openai';
  answer(input: AnswerInput, sink: AnswerSink): Promise<AnswerResult>;
}
