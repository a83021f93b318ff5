import type { Db } from '../db/schema';
import type { SearchEngine } from './engine';
import { foldWord } from './highlight';

/**
 * Spelling correction from the index's own vocabulary (002 §2 spell_correct): a query word
 * that no document holds, or very few, is replaced by the commonest word of the index within
 * edit distance 1 (2 for words of 8 letters or more) that is at least 10 times as common and
 * that a document the user may see holds. The query keeps its operators, quotes and spacing;
 * only the corrected words change.
 */

/** A word held by at most this many documents may be a misspelling. */
export const RARE_DOCS = 2;
/** A replacement must be this many times as common as the word it replaces. */
export const MORE_COMMON = 10;
/** Words shorter than this, or with digits, are left as they are (codes, tickers, years). */
const MIN_LETTERS = 3;
/** Only the first words of a long query are checked: each costs a vocabulary lookup. */
const MAX_WORDS = 20;
const CANDIDATES = 50;
/** The keyword language's operators (documents/keyword-query.ts reads them in capitals). */
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * Damerau-Levenshtein distance (optimal string alignment: an adjacent swap costs 1), by code
 * point; gives up and answers `max + 1` once the distance must exceed `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[t.length];
}

/** How far a word of this length may be from its correction. */
export const allowedDistance = (word: string) => ([...word].length >= 8 ? 2 : 1);

/** The replacement keeps the typed word's capitals: "Inflaton" -> "Inflation", "FEDD" -> "FED". */
const likeCase = (typed: string, word: string) => {
  if (typed.length > 1 && typed === typed.toUpperCase()) return word.toUpperCase();
  if (typed[0] !== typed[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
};

type WordAt = { typed: string; word: string; start: number; end: number };

/** The words of a query that spelling may correct, with where they stand in it. */
const correctableWords = (q: string): WordAt[] =>
  Array.from(q.matchAll(/[\p{L}\p{N}]+/gu), (m) => ({
    typed: m[0],
    word: foldWord(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  })).filter(
    (w) => !OPERATORS.has(w.typed) && !/\p{N}/u.test(w.word) && [...w.word].length >= MIN_LETTERS,
  );

/** Candidates tried per word, commonest first, until one is visible to the user. */
const VISIBLE_TRIES = 3;

export type SpellOptions = {
  /** The forms a word already matches (the engines' inflection expansion): never a "fix". */
  forms: (word: string) => readonly string[];
  /**
   * Whether the user may see a document holding this word. The vocabulary is the whole
   * index's, other users' private documents included: a correction to a word only those hold
   * would tell the user it exists, so such a word is never offered.
   */
  visible: (word: string) => Promise<boolean>;
};

/** The query with its misspelt words corrected, or null when none is. */
export async function correctSpelling(
  db: Db,
  engine: Pick<SearchEngine, 'termDocs' | 'similarTerms'>,
  q: string,
  opts: SpellOptions,
): Promise<string | null> {
  const words = correctableWords(q);
  const distinct = [...new Set(words.map((w) => w.word))].slice(0, MAX_WORDS);
  if (distinct.length === 0) return null;
  const docs = await engine.termDocs(db, distinct);
  const fixes = new Map<string, string>();
  for (const word of distinct) {
    const own = docs.get(word) ?? 0;
    if (own > RARE_DOCS) continue;
    const same = new Set(opts.forms(word));
    const max = allowedDistance(word);
    const candidates = (await engine.similarTerms(db, word, CANDIDATES))
      .filter(
        (c) =>
          c.term !== word &&
          !same.has(c.term) &&
          c.docs >= Math.max(1, own * MORE_COMMON) &&
          editDistance(word, c.term, max) <= max,
      )
      .sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1))
      .slice(0, VISIBLE_TRIES);
    for (const c of candidates) {
      if (await opts.visible(c.term)) {
        fixes.set(word, c.term);
        break;
      }
    }
  }
  if (fixes.size === 0) return null;
  let out = '';
  let at = 0;
  for (const w of words) {
    const fix = fixes.get(w.word);
    if (!fix) continue;
    out += q.slice(at, w.start) + likeCase(w.typed, fix);
    at = w.end;
  }
  return out + q.slice(at);
}
