/**
 * Sentences of real text (10-K filings, news) as [start, end) spans, for the extractive answer
 * and for matching history searches. A line break always ends a sentence (headings and list
 * items stand alone). A full stop ends one only when what follows starts a sentence: "1.5",
 * "approx. five" and "e.g. the" never split; after an abbreviation that may also end a
 * sentence ("NIKE, Inc.", "the U.S.", an initial "J.") it splits only before a word that
 * usually opens one ("The", "We", "In"...).
 */

export type SentenceSpan = { start: number; end: number };

/** Never the end of a sentence: titles and abbreviations followed by more of the sentence. */
const NEVER_LAST = new Set(
  `mr mrs ms dr prof sr jr st mt no nos vs v etc e.g i.e cf al fig figs approx est dept
  ref refs vol pp p para sec secs art ch jan feb mar apr jun jul aug sep sept oct nov dec
  mln bn rs viz`.split(/\s+/),
);

/** Abbreviations that also end sentences: they split only before a usual opening word. */
const MAYBE_LAST = new Set(
  'inc corp co ltd llc plc lp llp bros u.s u.k u.s.a e.u u.n a.m p.m'.split(/\s+/),
);

const OPENERS = new Set(
  `the a an we our us it its this that these those they their there in on at as for from
  during after before while although however because if when since additionally
  also furthermore moreover further in addition accordingly consequently each all any some
  many most such no other he she his her management net total revenues revenue sales`.split(/\s+/),
);

const TERMINATOR = /[.!?\u2026]/;
const CLOSERS = /["'\u2019\u201d)\]]/;

/** The word (letters, digits and inner dots) that ends just before `at`, lower-cased. */
function wordBefore(text: string, at: number): string {
  let i = at;
  while (i > 0 && /[\p{L}\p{N}.]/u.test(text[i - 1])) i--;
  return text.slice(i, at).toLowerCase().replace(/^\.+/, '');
}

/** The next word after `at` (skipping opening quotes and brackets). */
function wordAfter(text: string, at: number): string {
  const m = /^["'\u2018\u201c([]*([\p{L}\p{N}]+)/u.exec(text.slice(at, at + 40));
  return m ? m[1] : '';
}

/** Whether the terminator run text[from, to) ends a sentence, given what follows. */
function endsSentence(text: string, from: number, to: number, next: number): boolean {
  const following = wordAfter(text, next);
  if (!following) return /^["'\u2018\u201c([]/.test(text[next] ?? '') || next >= text.length;
  const first = following[0];
  // A lower-case continuation never starts a sentence ("approx. five", "e.g. the").
  if (/\p{Ll}/u.test(first)) return false;
  if (text.slice(from, to) !== '.') return true;
  const before = wordBefore(text, from);
  if (NEVER_LAST.has(before)) return false;
  // An initial ("J. Smith") or an abbreviation that may end a sentence.
  const maybe =
    MAYBE_LAST.has(before) || /^\p{L}$/u.test(before) || /^(\p{L}\.)+\p{L}$/u.test(before);
  return !maybe || OPENERS.has(following.toLowerCase());
}

/** Trims whitespace off a span; null when nothing is left. */
function trimmed(text: string, start: number, end: number): SentenceSpan | null {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return s < e ? { start: s, end: e } : null;
}

/** The sentences of a text, in order, as spans of it (text.slice(start, end) is the sentence). */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let from = 0;
  const push = (end: number) => {
    const span = trimmed(text, from, end);
    if (span) out.push(span);
    from = end;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      push(i);
      continue;
    }
    if (!TERMINATOR.test(c)) continue;
    let run = i + 1;
    while (run < text.length && TERMINATOR.test(text[run])) run++;
    let end = run;
    while (end < text.length && CLOSERS.test(text[end])) end++;
    // A terminator inside a token ("1.5", "U.S.A", "example.com") is not an end.
    if (end < text.length && !/\s/.test(text[end])) {
      i = end - 1;
      continue;
    }
    let next = end;
    while (next < text.length && /[^\S\n]/.test(text[next])) next++;
    if (next >= text.length || text[next] === '\n' || endsSentence(text, i, run, next)) push(end);
    i = end - 1;
  }
  push(text.length);
  return out;
}
