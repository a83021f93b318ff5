import { stemmer } from 'stemmer';

/**
 * How words are matched, everywhere (issue 16): the search index and its queries (both
 * engines), highlights, the assistant's retrieval and answerers, the history search, and the
 * UI's marks all read text through this one module, so the server and the UI cannot disagree
 * on what a word is or on when two words are the same.
 *
 * - A word is a run of letters and digits, lower-cased, its accents folded (`fold`: "Café" is
 *   "cafe"); anything else parts words ("10-K" is "10" and "k", "Nike's" is "nike" and "s").
 * - Two words are the same word when their stems are (`stem`: the Porter stemmer, npm
 *   `stemmer`): "employed" and "employs" are "employ" ("emploi"), "companies" is "company"
 *   ("compani"). Only words of the English letters a-z are stemmed; numbers, words mixing
 *   letters and digits ("10k", "q3") and other scripts stand as they are.
 * - A question's stop words (`isStopWord`) are function words only: words that carry meaning
 *   in finance ("top", "net", "us", "may", "up", "per", "share") are never dropped.
 */

/**
 * Diacritics folded as FTS5's `remove_diacritics 2` does for the Latin alphabet (NFD, the
 * combining marks U+0300-U+036F out, NFC): PostgreSQL's 'simple' configuration would keep them,
 * so both engines are written from words folded here. Plain ASCII is answered as it is.
 */
export const fold = (text: string): string =>
  /[^\x20-\x7e\s]/.test(text)
    ? text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .normalize('NFC')
    : text;

/** A word of a text and where it stands in the original text: [start, end) in UTF-16 units. */
export type WordSpan = { word: string; start: number; end: number };

/**
 * A run of the original text that makes words: letters and digits, with the combining accents
 * that folding removes (a decomposed "e\u0301" stays inside its word, as NFC text does).
 */
const RUN = /[\p{L}\p{N}\u0300-\u036f]+/gu;
const PLAIN_RUN = /^[a-z0-9]+$/i;
const ONE_WORD = /^[\p{L}\p{N}]+$/u;
const PIECE = /[\p{L}\p{N}]+/gu;

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Calls `each` with every word of `text` in order and the [start, end) of the run of the
 * original text it came from: the one tokeniser (wordsOf and wordSpans are made of it; the
 * index reads a document through it once). A run that folds into several words (a letter
 * whose folded form carries a mark no letter absorbs) gives each of them its run's span.
 */
export function forEachWord(
  text: string,
  each: (word: string, start: number, end: number) => void,
): void {
  if (!NON_ASCII.test(text)) {
    // ASCII: letters and digits are [a-z0-9] once lower-cased, offsets unchanged.
    const lower = text.toLowerCase();
    const re = /[a-z0-9]+/g;
    for (let m = re.exec(lower); m; m = re.exec(lower)) {
      each(m[0], m.index, m.index + m[0].length);
    }
    return;
  }
  for (const m of text.matchAll(RUN)) {
    const run = m[0];
    const start = m.index;
    const end = start + run.length;
    if (PLAIN_RUN.test(run)) {
      each(run.toLowerCase(), start, end);
      continue;
    }
    const folded = fold(run).toLowerCase();
    if (ONE_WORD.test(folded)) {
      each(folded, start, end);
      continue;
    }
    for (const piece of folded.match(PIECE) ?? []) each(piece, start, end);
  }
}

/** The words of a text in order: lower-cased, accents folded, letters and digits. */
export function wordsOf(text: string): string[] {
  // The same words, at once, where the text is ASCII (no accents, no other letters).
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const out: string[] = [];
  forEachWord(text, (word) => out.push(word));
  return out;
}

/** Each word of a text with its [start, end) in the ORIGINAL text (highlights, marks). */
export function wordSpans(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  forEachWord(text, (word, start, end) => out.push({ word, start, end }));
  return out;
}

/**
 * Words Snowball's English stemmer (Porter2) keeps as they are, where Porter's would merge
 * them with another word ("news" would be "new").
 */
const INVARIANT = new Set(['news', 'sky', 'howe', 'atlas', 'cosmos', 'bias', 'andes']);
const ENGLISH = /^[a-z]+$/;
/** Stems remembered (a text repeats its words); the cache is emptied when it fills. */
const CACHE_SIZE = 20_000;
const cache = new Map<string, string>();

/**
 * A word's stem: what two words must share to be the same word. Takes any word (it is lower-
 * cased and folded first); only words of the letters a-z are stemmed, anything else (numbers,
 * "10k", other scripts) is its own stem.
 */
export function stem(word: string): string {
  const known = cache.get(word);
  if (known !== undefined) return known;
  let w = word;
  if (!ENGLISH.test(w)) {
    w = fold(word).toLowerCase();
    if (!ENGLISH.test(w)) return w;
  }
  const out = INVARIANT.has(w) ? w : stemmer(w);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(word, out);
  return out;
}

/** The stems of a text's words, in order (what the index holds). */
export const stemsOf = (text: string): string[] => wordsOf(text).map(stem);

/** Whether two words are the same word (the same stem). */
export const sameWord = (a: string, b: string): boolean => stem(a) === stem(b);

/**
 * The words every question has ("what", "did", "the", "tell me about"): function words and
 * the words that only frame a question. Never a word that carries meaning in finance: "top"
 * (line), "net", "us", "may", "up", "down", "over", "under", "after", "before", "most",
 * "more", "few", "well", "own", "since", "per", "off", "out", "above", "below", "use",
 * "going" (concern) and "primary" (market) are content words.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about across again against all almost along also although am among an and another any
  anybody anyone anything are around as at be because been being between both but by can
  cannot could did do does doing done during each either else enough etc even ever every for
  from further get gets getting give given gives go goes got had has have having he her here
  hers herself him himself his how however i if in into is it its itself just kind know let
  like made make many me might much must my myself need neither no nor not now of often on once
  one only or other others our ours ourselves perhaps please quite rather really regarding said
  same say says see seem seems several shall she should show so some something such tell than
  that the their theirs them themselves then there these they thing things this those though
  through thus to too toward towards until upon very via want was we were what whatever when
  where whether which while who whom whose why will with within without would yes yet you your
  yours yourself yourselves explain describe summarize summarise list find everything
  information info details detail mention mentioned mentions according document documents main
  key major important biggest overall latest recent recently lately currently today`
    .split(/\s+/)
    .filter(Boolean),
);

/** Whether a word (any case, accents or not) is a question's stop word. */
export const isStopWord = (word: string): boolean =>
  STOP_WORDS.has(PLAIN_RUN.test(word) ? word.toLowerCase() : fold(word).toLowerCase());
