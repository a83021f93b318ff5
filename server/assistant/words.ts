import { isStopWord, stem, wordsOf } from '../../contract/words';
import type { SearchExpr } from '../search';

/**
 * The question's words as retrieval and the answerers read them, on contract/words.ts (the one
 * way words are matched: the index, queries, highlights and the UI's marks read the same):
 * words lower-cased and folded, without the words every question has ("what", "did", "the",
 * "tell me about": contract/words.ts STOP_WORDS, which keeps finance's "top", "net", "us"), and
 * matched by STEM ("employ" holds "employed", "company" holds "companies").
 */

export { isStopWord };

/** Words shorter than this carry no meaning of their own (the "s" of "Nike's"). */
const MIN_WORD = 2;

/**
 * The content words of a text in order of first appearance, one per stem (the first word
 * written of it: "employees employed" is ["employees"]).
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const word of wordsOf(text)) {
    if (word.length < MIN_WORD || isStopWord(word)) continue;
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(word);
  }
  return out;
}

/** Most words a question's retrieval looks for (a pasted paragraph is not a question). */
export const MAX_QUERY_WORDS = 16;

/** Retrieval's expression: any of the words (the engines rank passages holding more first). */
export function anyOf(words: readonly string[]): SearchExpr | null {
  const terms = words
    .slice(0, MAX_QUERY_WORDS)
    .map((w): SearchExpr => ({ type: 'term', words: [w] }));
  if (terms.length === 0) return null;
  return terms.length === 1 ? terms[0] : { type: 'or', items: terms };
}

/** Every one of the words (search mode's first try). */
export function allOf(words: readonly string[]): SearchExpr | null {
  const terms = words
    .slice(0, MAX_QUERY_WORDS)
    .map((w): SearchExpr => ({ type: 'term', words: [w] }));
  if (terms.length === 0) return null;
  return terms.length === 1 ? terms[0] : { type: 'and', items: terms };
}

/** A question word: `word` as written (folded, lower case) and its `stem`, by which a text
 * holds it (`holds`). */
export type QuestionTerm = { word: string; stem: string };

/** The question's content words (at most MAX_QUERY_WORDS, one per stem) as terms. */
export const questionTerms = (question: string): QuestionTerm[] =>
  contentWords(question)
    .slice(0, MAX_QUERY_WORDS)
    .map((word) => ({ word, stem: stem(word) }));

/** The STEMS of a text's words, as a set, for matching question terms against it. */
export const wordSet = (text: string): Set<string> => {
  const out = new Set<string>();
  for (const word of wordsOf(text)) out.add(stem(word));
  return out;
};

/** Whether a text (its `wordSet`) holds the term: any word of the term's stem. */
export const holds = (stems: ReadonlySet<string>, term: QuestionTerm): boolean =>
  stems.has(term.stem);
