import type { SearchExpr } from '../search/engine';
import { searchWords, wordForms } from '../search/query';

/**
 * The question's words as retrieval and the extractive answerer read them: the words the index
 * holds (search/query.ts searchWords: lower-cased, folded), without the words every question
 * has ("what", "did", "the", "tell me about"), each with its plural/singular forms as the
 * engines match them.
 */

const STOP_WORDS = new Set(
  `a about above across after again against all almost along also although am among an and
  another any anybody anyone anything are around as at be because been before being below
  between both but by can cannot could did do does doing done down during each either else
  enough etc even ever every few for from further get gets getting give given gives go goes
  going got had has have having he her here hers herself him himself his how however i if in
  into is it its itself just kind know let like made make many may me might more most much must
  my myself need neither no nor not now of off often on once one only or other others our ours
  ourselves out over own per perhaps please quite rather really regarding said same say says
  see seem seems several shall she should show since so some something such tell than that the
  their theirs them themselves then there these they thing things this those though through
  thus to too toward towards under until up upon us use used very via want was we well were
  what whatever when where whether which while who whom whose why will with within without
  would yes yet you your yours yourself yourselves explain describe summarize summarise list
  find anything everything information info details detail mention mentioned mentions according
  document documents main key major important top biggest primary overall latest recent
  recently lately currently today`.split(/\s+/),
);

/** Words shorter than this carry no meaning of their own (the "s" of "Nike's"). */
const MIN_WORD = 2;

/** The distinct content words of a text, in order of first appearance. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const word of searchWords(text)) {
    if (word.length < MIN_WORD || STOP_WORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push(word);
  }
  return out;
}

export const isStopWord = (word: string) => STOP_WORDS.has(word);

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

/** A question word and the forms of it a text may hold (company|companies). */
export type QuestionTerm = { word: string; forms: ReadonlySet<string> };

export const questionTerms = (question: string): QuestionTerm[] =>
  contentWords(question)
    .slice(0, MAX_QUERY_WORDS)
    .map((word) => ({ word, forms: new Set(wordForms(word)) }));

/** The words of a text as a set, for matching question terms against it. */
export const wordSet = (text: string): Set<string> => new Set(searchWords(text));

export const holds = (words: ReadonlySet<string>, term: QuestionTerm): boolean => {
  for (const form of term.forms) if (words.has(form)) return true;
  return false;
};
