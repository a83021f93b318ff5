import { stem, wordsOf as searchWords } from '../../contract/words';
import type { RetrievedPassage } from './answerer';
import type { QuestionTerm } from './words';
import { isStopWord } from './words';

/**
 * Follow-up questions from what was retrieved, never from anything else: the titles of the
 * documents read, and the terms those passages repeat that the question did not ask about.
 * A question names only what the documents named, so it asks; it never states a fact.
 */

export const MAX_FOLLOWUPS = 3;
const TITLE_CHARS = 60;

/** A title short enough for a question: parentheses (filer numbers) out, cut at a word. */
export function shortTitle(title: string): string {
  const plain = title
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s\-–—:|,]+$/, '')
    .trim();
  if (plain.length <= TITLE_CHARS) return plain;
  const cut = plain.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).replace(/[\s\-–—:|,]+$/, '')}…`;
}

/** Words too general to be what a document is about ("continued", "limited number"). */
const GENERIC = new Set(
  `able ability addition additional adverse adversely affect affected affects certain
  continue continued continues could create creates current example future impact impacted impacts
  including limited material materially number part related result resulted results
  significant significantly throughout various would time times year years`.split(/\s+/),
);

const isTopicWord = (w: string) =>
  w.length >= 4 && /^\p{L}+$/u.test(w) && !isStopWord(w) && !GENERIC.has(w);

/**
 * The term the passages repeat most that the question does not hold: a pair of words in a
 * row ("supply chain") when one comes twice or more, else a single word that does.
 */
export function repeatedTerm(
  texts: readonly string[],
  asked: readonly QuestionTerm[],
): string | null {
  const askedStems = new Set(asked.map((t) => t.stem));
  const wasAsked = (w: string) => askedStems.has(stem(w));
  const pairs = new Map<string, number>();
  const singles = new Map<string, number>();
  for (const text of texts) {
    const words = searchWords(text);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (!isTopicWord(w) || wasAsked(w)) continue;
      singles.set(w, (singles.get(w) ?? 0) + 1);
      const next = words[i + 1];
      if (next && isTopicWord(next) && !wasAsked(next)) {
        const pair = `${w} ${next}`;
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      }
    }
  }
  const top = (counts: Map<string, number>) =>
    [...counts]
      .filter(([, n]) => n >= 2)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  return top(pairs) ?? top(singles);
}

/** Verbs of asking: "what did X report", "what does Y say". */
const ASKING = new Set([
  'report',
  'reported',
  'reports',
  'reporting',
  'say',
  'said',
  'says',
  'state',
  'stated',
  'states',
]);

/**
 * What the question asks about, in its own words: the longest run of its content words in a
 * row (the last on a tie, where questions put their object), at most 4, leaving out words
 * that only name a document (its title's words).
 */
export function askedTopic(question: string, naming: ReadonlySet<string>): string | null {
  const runs: string[][] = [[]];
  for (const w of searchWords(question)) {
    if (w.length < 2 || isStopWord(w) || ASKING.has(w) || naming.has(w)) runs.push([]);
    else runs[runs.length - 1].push(w);
  }
  let best: string[] = [];
  for (const run of runs) if (run.length && run.length >= best.length) best = run;
  return best.length ? best.slice(0, 4).join(' ') : null;
}

/**
 * Up to MAX_FOLLOWUPS questions: more on a term the cited passages repeat, the same question
 * of another document read, and the main points of the best document.
 */
export function followupsFor(
  question: string,
  terms: readonly QuestionTerm[],
  cited: readonly RetrievedPassage[],
  read: readonly RetrievedPassage[],
): string[] {
  const lead = cited[0];
  if (!lead) return [];
  const out: string[] = [];
  const term = repeatedTerm(
    cited.map((p) => p.text),
    terms,
  );
  if (term) out.push(`What does “${shortTitle(lead.title)}” say about ${term}?`);
  const other = read.find((p) => p.document_id !== lead.document_id && shortTitle(p.title));
  if (other) {
    const naming = new Set([...searchWords(lead.title), ...searchWords(other.title)]);
    const topic = askedTopic(question, naming);
    if (topic) out.push(`What does “${shortTitle(other.title)}” say about ${topic}?`);
  }
  out.push(`What are the key points of “${shortTitle(lead.title)}”?`);
  return [...new Set(out)].slice(0, MAX_FOLLOWUPS);
}
