import { stem } from '../../contract/words';
import type { RetrievedPassage } from './answerer';
import { answersInWords, judgeSentence, type Evidence } from './evidence';
import type { QuestionAnalysis } from './question';
import { answerUnits, type AnswerUnit } from './sentences';
import { holds, questionTerms, wordSet, type QuestionTerm } from './words';

/**
 * The extractive answerer's reading: only sentences that may answer (evidence.ts: about the
 * organisation the question names, holding what it asks and the figure it asks for) are
 * candidates; among them, those stating all of it first, then by how much of the question they
 * hold, the question's words weighted by how rare they are among the sentences read (a word
 * every passage holds says little). A sentence's document title counts at half weight ("Nike"
 * in the title of Nike's 10-K, whose sentences say "we"). No candidate: nothing is answered.
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
  evidence: Evidence;
  /** A table's row: its column (which year) is the reader's to tell. */
  row: boolean;
};

export type Reading = {
  terms: QuestionTerm[];
  /** The chosen sentences, best first; empty when nothing relevant was found. */
  chosen: Candidate[];
  /** Share of the question's weight the chosen sentences (and their titles) hold together. */
  coverage: number;
  /** The answer states what was asked, about the organisations named (each of a comparison). */
  strong: boolean;
};

/** With no term to hold (a question of names only), less than this share is nothing found. */
export const MIN_COVERAGE = 0.34;
/** The answer quotes at most this many sentences, and wants at least MIN_SENTENCES. */
export const MAX_SENTENCES = 5;
const MIN_SENTENCES = 3;
/** At most this many sentences from one passage (an answer reads several where it can). */
const PER_PASSAGE = 3;
/** Sentences this similar (shared words over all words) are one sentence twice. */
const NEAR_DUPLICATE = 0.6;
/** Sentences outside these bounds are fragments, headings or run-on lists, not answers. */
const MIN_WORDS = 5;
const MAX_WORDS = 90;
const MAX_CHARS = 650;
const MAX_ROW_WORDS = 30;
/** What the first sentence of a document speaking of the whole company gains. */
const FIRST_WHOLE = 0.2;

const OPENS = /^["'\u2018\u201c(\p{Lu}\p{N}$]/u;
const CLOSES = /[.!?\u2026]["'\u2019\u201d)\]]*$/;
/** A list item or line with no final stop still reads as a sentence from this many words. */
const MIN_UNSTOPPED_WORDS = 8;

/** A whole, readable sentence: not a heading, a table row or a piece cut off a passage. */
function readable(text: string, words: number, unit: AnswerUnit): boolean {
  // A table's row reads as its label and figures ("Net revenues $ 6,362 $ 6,318").
  if (unit.row) return words <= MAX_ROW_WORDS && /\p{L}{3}/u.test(text);
  // A list with its lead-in is read whole: twice a sentence's length.
  const scale = unit.list ? 2 : 1;
  if (words < MIN_WORDS || words > MAX_WORDS * scale || text.length > MAX_CHARS * scale) {
    return false;
  }
  if (!OPENS.test(text)) return false;
  if (!CLOSES.test(text) && (words < MIN_UNSTOPPED_WORDS || /[,;:]$/.test(text))) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  const digits = text.match(/\p{N}/gu)?.length ?? 0;
  // Figures may be dense ("we had 10,726, 8,813, and 6,433 employees"); a row of figures is not.
  return letters >= digits && upper < letters * 0.5;
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

/** Capitalised words of a sentence past its first that the question does not hold. */
function capitalised(text: string, question: string): Set<string> {
  const asked = new Set(question.toLowerCase().match(/[\p{L}]+/gu) ?? []);
  const words = text.match(/(?<=\s)\p{Lu}[\p{L}]+/gu) ?? [];
  return new Set(words.filter((w) => !asked.has(w.toLowerCase())));
}

/** The sentences of the passages that answer the question, best first. */
export function readPassages(
  question: string,
  analysis: QuestionAnalysis,
  passages: readonly RetrievedPassage[],
): Reading {
  const terms = questionTerms(question);
  const nothing: Reading = { terms, chosen: [], coverage: 0, strong: false };
  if (passages.length === 0) return nothing;

  const sentences: Array<Omit<Candidate, 'coverage' | 'score'>> = [];
  passages.forEach((passage, rank) => {
    const titleWords = wordSet(passage.title);
    for (const span of answerUnits(passage.text)) {
      const text = passage.text.slice(span.start, span.end);
      if (!readable(text, text.split(/\s+/).length, span)) continue;
      const evidence = judgeSentence(analysis, text, {
        entity: passage.entity,
        title: passage.title,
      });
      const words = wordSet(text);
      const own = terms.filter((t) => holds(words, t));
      const titled = terms.filter((t) => holds(titleWords, t));
      sentences.push({
        passage,
        rank,
        text,
        start: span.start,
        end: span.end,
        words,
        own,
        titled,
        evidence,
        row: span.row,
      });
    }
  });

  // Inverse sentence frequency: a term few sentences hold weighs more.
  const total = sentences.length;
  const weight = new Map<QuestionTerm, number>();
  for (const t of terms) {
    const holding = sentences.filter((s) => s.own.includes(t)).length;
    weight.set(t, Math.log(1 + (total + 1) / (holding + 0.5)));
  }
  const all = sumOf(terms, weight) || 1;

  const candidates: Candidate[] = sentences
    .filter((s) => s.evidence.eligible)
    .map((s) => {
      const asked = s.own.filter((t) => !s.titled.includes(t));
      const held = sumOf(asked, weight) + 0.5 * sumOf(s.titled, weight);
      const coverage = (sumOf(asked, weight) + sumOf(s.titled, weight)) / all;
      const terms = analysis.groups.length ? s.evidence.held / analysis.groups.length : 0;
      // Better-ranked passages first among equals; long sentences read worse.
      const rankBonus = 0.05 * (1 - s.rank / passages.length);
      const lengthCost = 0.002 * Math.max(0, s.words.size - 35);
      const near = s.evidence.near ? 0.3 : 0;
      const whole = s.evidence.whole ? 0.5 : 0;
      // A sentence stating the figure reads better than a row of a table holding it.
      const rowCost = s.row ? 0.3 : 0;
      // Words asked that need not be held ("outstanding", "total") still tell sentences apart.
      const softs = analysis.soft.filter((w) => s.words.has(stem(w))).length;
      const score =
        (s.evidence.strong ? 1 : 0) +
        terms +
        near +
        whole +
        0.5 * (held / all) +
        rankBonus -
        lengthCost -
        rowCost +
        0.1 * Math.min(softs, 3);
      return { ...s, coverage, score };
    })
    .filter((c) => analysis.groups.length > 0 || c.coverage >= MIN_COVERAGE);
  // A filing states the company's figure before its segments' ("Revenues decreased $506
  // million" in the consolidated results, "Revenues were $933 million" in a segment's): of a
  // document's sentences speaking of the whole, its first ranks higher.
  const first = new Map<string, Candidate>();
  for (const c of candidates) {
    if (!c.evidence.whole) continue;
    const seen = first.get(c.passage.document_id);
    if (!seen || c.passage.start + c.start < seen.passage.start + seen.start) {
      first.set(c.passage.document_id, c);
    }
  }
  for (const c of first.values()) c.score += FIRST_WHOLE;
  candidates.sort((a, b) => b.score - a.score || a.rank - b.rank || a.start - b.start);

  const best = candidates[0];
  if (!best) return nothing;

  const chosen: Candidate[] = [];
  const perPassage = new Map<number, number>();
  const add = (c: Candidate) => {
    chosen.push(c);
    perPassage.set(c.passage.n, (perPassage.get(c.passage.n) ?? 0) + 1);
  };
  // A comparison answers for each organisation it names, or not at all.
  const named = analysis.entities.map((e) => e.key);
  if (named.length > 1) {
    for (const key of named) {
      const first = candidates.find((c) => c.evidence.entity === key);
      if (!first) return nothing;
      if (!chosen.includes(first)) add(first);
    }
  } else {
    add(best);
    // A question of two parts answers each: the best sentence stating the second too. Its "it"
    // is the first's answer ("Who is GSI's largest customer and what share of revenue did it
    // account for?"): a sentence naming the name the first part's answer gives comes first.
    const parts = analysis.parts ?? [];
    if (parts.length > 1 && !best.evidence.strongParts[1]) {
      const stating = candidates.filter((c) => c.evidence.strongParts[1]);
      const names =
        parts[0].figure === 'name' ? capitalised(best.text, analysis.question) : new Set();
      const next =
        stating.find((c) => [...capitalised(c.text, '')].some((n) => names.has(n))) ?? stating[0];
      if (next) add(next);
    }
  }
  for (const c of candidates) {
    if (chosen.length >= MAX_SENTENCES) break;
    if (chosen.includes(c)) continue;
    // Past the minimum, only sentences nearly as good as the best.
    const floor = chosen.length < MIN_SENTENCES ? best.score * 0.5 : best.score * 0.75;
    if (c.score < floor) continue;
    if ((perPassage.get(c.passage.n) ?? 0) >= PER_PASSAGE) continue;
    if (chosen.some((p) => similarity(p.words, c.words) >= NEAR_DUPLICATE)) continue;
    add(c);
  }

  const held = new Set<QuestionTerm>();
  for (const c of chosen) for (const t of [...c.own, ...c.titled]) held.add(t);
  // Strong, and unambiguous: when sentences stating all of it give different figures (3,160
  // employees volunteering, 12,000 employees in all), the reader has to judge: not HIGH.
  const figures = (c: Candidate) => (c.text.match(/\d[\d,.]*\d|\d/g) ?? []).sort().join(' ');
  const stating = candidates.filter((c) => c.evidence.strong);
  const agree = (key: string | null) =>
    new Set(stating.filter((c) => key === null || c.evidence.entity === key).map(figures)).size <=
    1;
  const strong =
    named.length > 1
      ? named.every(
          (key) =>
            chosen.some((c) => c.evidence.entity === key && c.evidence.strong) &&
            (answersInWords(analysis.figure) || agree(key)),
        )
      : chosen[0].evidence.strong &&
        !chosen[0].row &&
        // Kinds ("storage vendors", "public companies") are many: the reader judges them.
        analysis.figure !== 'kind' &&
        (answersInWords(analysis.figure) || agree(null)) &&
        // Each part of a two-part question stated by a sentence of the answer.
        chosen[0].evidence.strongParts.every((_, i) =>
          chosen.some((c) => c.evidence.strongParts[i]),
        );
  return { terms, chosen, coverage: sumOf(held, weight) / all, strong };
}
