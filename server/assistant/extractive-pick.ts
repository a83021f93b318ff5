import type { RetrievedPassage } from './answerer';
import { splitSentences } from './sentences';
import { holds, questionTerms, wordSet, type QuestionTerm } from './words';

/**
 * The extractive answerer's reading: every sentence of the retrieved passages scored by how
 * much of the question it holds, the question's words weighted by how rare they are among
 * those sentences (a word every passage holds says little; one no passage holds is what the
 * answer is missing). A sentence's document title counts at half weight ("Nike" in the title
 * of Nike's 10-K, whose sentences say "we").
 */

/** A sentence of a passage, with its place in the passage's text. */
export type Candidate = {
  passage: RetrievedPassage;
  /** Its rank among the passages (0 best). */
  rank: number;
  text: string;
  start: number;
  end: number;
  words: Set<string>;
  /** Question terms the sentence itself holds. */
  own: QuestionTerm[];
  /** Question terms its document's title holds. */
  titled: QuestionTerm[];
  /** Share of the question's weight held by the sentence and its title together (0..1). */
  coverage: number;
  score: number;
};

export type Reading = {
  terms: QuestionTerm[];
  /** The chosen sentences, best first; empty when nothing relevant was found. */
  chosen: Candidate[];
  /** Share of the question's weight the chosen sentences (and their titles) hold together. */
  coverage: number;
};

/** Fewer than this share of the question's weight: nothing relevant was found. */
export const MIN_COVERAGE = 0.34;
/** The answer quotes at most this many sentences, and wants at least MIN_SENTENCES. */
export const MAX_SENTENCES = 5;
const MIN_SENTENCES = 3;
/** At most this many sentences from one passage (an answer reads several where it can). */
const PER_PASSAGE = 3;
/** The part of the question not in a title must be held when it weighs this share or more. */
const ASKED_SHARE = 0.4;
/** Sentences this similar (shared words over all words) are one sentence twice. */
const NEAR_DUPLICATE = 0.6;
/** Sentences outside these bounds are fragments, headings or run-on lists, not answers. */
const MIN_WORDS = 5;
const MAX_WORDS = 90;
const MAX_CHARS = 650;

const OPENS = /^["'\u2018\u201c(\p{Lu}\p{N}]/u;
const CLOSES = /[.!?\u2026]["'\u2019\u201d)\]]*$/;

/** A whole, readable sentence: not a heading, a table row or a piece cut off a passage. */
function readable(text: string, words: number): boolean {
  if (words < MIN_WORDS || words > MAX_WORDS || text.length > MAX_CHARS) return false;
  if (!OPENS.test(text) || !CLOSES.test(text)) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const digits = text.match(/\p{N}/gu)?.length ?? 0;
  return letters > digits * 2 && upper < letters * 0.5;
}

const sumOf = (terms: Iterable<QuestionTerm>, weight: Map<QuestionTerm, number>) => {
  let s = 0;
  for (const t of terms) s += weight.get(t) ?? 0;
  return s;
};

const similarity = (a: Set<string>, b: Set<string>) => {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const all = a.size + b.size - shared;
  return all === 0 ? 1 : shared / all;
};

/** The sentences of the passages that answer the question, best first. */
export function readPassages(question: string, passages: readonly RetrievedPassage[]): Reading {
  const terms = questionTerms(question);
  if (terms.length === 0 || passages.length === 0) return { terms, chosen: [], coverage: 0 };

  const sentences: Array<Omit<Candidate, 'coverage' | 'score'>> = [];
  passages.forEach((passage, rank) => {
    const titleWords = wordSet(passage.title);
    for (const span of splitSentences(passage.text)) {
      const text = passage.text.slice(span.start, span.end);
      const words = wordSet(text);
      if (!readable(text, text.split(/\s+/).length)) continue;
      const own = terms.filter((t) => holds(words, t));
      const titled = terms.filter((t) => holds(titleWords, t));
      sentences.push({ passage, rank, text, start: span.start, end: span.end, words, own, titled });
    }
  });

  // Inverse sentence frequency: a term no sentence holds weighs the most.
  const total = sentences.length;
  const weight = new Map<QuestionTerm, number>();
  for (const t of terms) {
    const holding = sentences.filter((s) => s.own.includes(t)).length;
    weight.set(t, Math.log(1 + (total + 1) / (holding + 0.5)));
  }
  const whole = sumOf(terms, weight);

  // A term of a document's title names the document, not what is asked of it: it counts half,
  // held by the sentence or not; and when the rest of the question weighs much (more than a
  // filler word such as "large"), the sentence must hold some of the rest.
  const candidates: Candidate[] = sentences
    .map((s) => {
      const titleTerms = s.titled;
      const asked = s.own.filter((t) => !titleTerms.includes(t));
      const needsAsked =
        sumOf(
          terms.filter((t) => !titleTerms.includes(t)),
          weight,
        ) >=
        ASKED_SHARE * whole;
      const held = sumOf(asked, weight) + 0.5 * sumOf(titleTerms, weight);
      const coverage = (sumOf(asked, weight) + sumOf(titleTerms, weight)) / whole;
      // Better-ranked passages first among equals; long sentences read worse.
      const rankBonus = 0.05 * (1 - s.rank / passages.length);
      const lengthCost = 0.002 * Math.max(0, s.words.size - 35);
      const score = held / whole + rankBonus - lengthCost;
      return { ...s, coverage, score, ok: s.own.length > 0 && (!needsAsked || asked.length > 0) };
    })
    .filter((c) => c.ok)
    .map(({ ok: _ok, ...c }) => c)
    .sort((a, b) => b.score - a.score || a.rank - b.rank || a.start - b.start);

  const best = candidates[0];
  if (!best || best.coverage < MIN_COVERAGE) return { terms, chosen: [], coverage: 0 };

  const chosen: Candidate[] = [];
  const perPassage = new Map<number, number>();
  for (const c of candidates) {
    if (chosen.length >= MAX_SENTENCES) break;
    // Past the minimum, only sentences nearly as good as the best.
    const floor = chosen.length < MIN_SENTENCES ? best.score * 0.4 : best.score * 0.6;
    if (c.score < floor || c.coverage < MIN_COVERAGE / 2) continue;
    // On the lead's subject (a word of the question it holds), or nearly as complete as it.
    const onSubject = c.own.some((t) => best.own.includes(t));
    if (c !== best && !onSubject && c.coverage < best.coverage * 0.6) continue;
    if ((perPassage.get(c.passage.n) ?? 0) >= PER_PASSAGE) continue;
    if (chosen.some((p) => similarity(p.words, c.words) >= NEAR_DUPLICATE)) continue;
    chosen.push(c);
    perPassage.set(c.passage.n, (perPassage.get(c.passage.n) ?? 0) + 1);
  }

  const held = new Set<QuestionTerm>();
  for (const c of chosen) for (const t of [...c.own, ...c.titled]) held.add(t);
  return { terms, chosen, coverage: sumOf(held, weight) / whole };
}
