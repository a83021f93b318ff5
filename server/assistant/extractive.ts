import type { AnswerQuality } from '../../contract/assistant';
import type { AnsweredSentence, Answerer, AnswerInput, AnswerSink } from './answerer';
import { readPassages, type Candidate } from './extractive-pick';
import { followupsFor } from './followups';

/**
 * The default answerer, with no model: the sentences of the retrieved passages that answer
 * the question (extractive-pick.ts), quoted as they stand, each followed by `[n]` of the
 * passage it came from: so every sentence of the answer is verifiably in a cited passage.
 * The best sentence leads; the others follow as bullet points in document order. The answer
 * streams a few words at a time, as a model's would, so it shows as it is written and a stop
 * cuts it short.
 */

export const NOT_FOUND = 'I could not find this in your data.';

export type ExtractiveOptions = {
  /** Words per streamed chunk. */
  chunkWords?: number;
  /** Pause between chunks (ms): the answer appears as it is written, and can be stopped. */
  chunkDelayMs?: number;
};

const aborted = (signal: AbortSignal) =>
  signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError');

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(aborted(signal));
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(aborted(signal));
    }
    signal.addEventListener('abort', stop, { once: true });
  });

/** Markdown's own characters in a quoted sentence, escaped so it reads as the document wrote. */
const escapeMarkdown = (text: string) =>
  text.replace(/\s+/g, ' ').replace(/([\\`*_[\]<>#|~])/g, '\\$1');

const line = (c: Candidate) => `${escapeMarkdown(c.text)} [${c.passage.n}]`;

/** The best sentence first, the others in the order the passages and their texts give. */
const inReadingOrder = (chosen: readonly Candidate[]): Candidate[] => [
  chosen[0],
  ...chosen.slice(1).sort((a, b) => a.rank - b.rank || a.start - b.start),
];

/** The lead as a paragraph; one more as a second paragraph, more as bullet points. */
function compose(ordered: readonly Candidate[]): string {
  const [lead, ...rest] = ordered;
  if (rest.length === 0) return line(lead);
  if (rest.length === 1) return `${line(lead)}\n\n${line(rest[0])}`;
  return `${line(lead)}\n\n${rest.map((c) => `- ${line(c)}`).join('\n')}`;
}

/** Pieces of the text of about `words` words each, joined back they are the text. */
const piecesOf = (text: string, words: number): string[] => {
  const tokens = text.match(/\s*\S+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += words) out.push(tokens.slice(i, i + words).join(''));
  return out;
};

export function createExtractiveAnswerer(options: ExtractiveOptions = {}): Answerer {
  const chunkWords = Math.max(1, options.chunkWords ?? 4);
  const delay = Math.max(0, options.chunkDelayMs ?? 8);

  const stream = async (text: string, sink: AnswerSink, signal: AbortSignal) => {
    const pieces = piecesOf(text, chunkWords);
    for (let i = 0; i < pieces.length; i++) {
      if (signal.aborted) throw aborted(signal);
      await sink.chunk(pieces[i]);
      if (delay > 0 && i < pieces.length - 1) await pause(delay, signal);
    }
  };

  return {
    name: 'extractive',
    async answer(input: AnswerInput, sink: AnswerSink) {
      const reading = readPassages(input.question, input.analysis, input.passages);
      if (reading.chosen.length === 0) {
        await stream(NOT_FOUND, sink, input.signal);
        return { answer: NOT_FOUND, sentences: [], quality: 'LOW', followups: [] };
      }
      const ordered = inReadingOrder(reading.chosen);
      const answer = compose(ordered);
      await stream(answer, sink, input.signal);
      const sentences: AnsweredSentence[] = ordered.map((c) => ({
        sentence: c.text,
        cites: [{ n: c.passage.n, spans: [{ start: c.start, end: c.end }] }],
      }));
      // HIGH only when the lead states what was asked about the organisation named.
      const quality: AnswerQuality = reading.strong ? 'HIGH' : 'LOW';
      const cited = [...new Map(ordered.map((c) => [c.passage.n, c.passage])).values()];
      return {
        answer,
        sentences,
        quality,
        followups: followupsFor(input.question, reading.terms, cited, input.passages),
      };
    },
  };
}
