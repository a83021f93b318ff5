/**
 * Sentences of real text (10-K filings, news) as [start, end) spans of it: the units passages
 * are made of (passages.ts: a passage starts and ends where a sentence does), and what the
 * assistant quotes, checks citations against and matches history searches with
 * (assistant/sentences.ts re-exports this one splitter, so the two never disagree).
 *
 * Lines first; a filing's section is lines ("\n"), the same arriving through a feed is
 * paragraphs (one <p> per line: blank lines between them), and both read alike:
 * - a bullet mark alone on its line ("•", "●", "◦", "▪", "-", "–", "*", "(a)", "(iv)", "1.",
 *   "2)"): its item is the next line with text, and the unit starts at the item's text (the
 *   mark is no part of any unit). A mark at a line's start ("• Item", "(a) Item", "1. Item")
 *   begins a unit after it the same way, and so does a dash run in before a capital after a
 *   heading ("Revenues\n—Revenues decreased $506 million");
 * - a table row (`isTableRow`: figures, $, %, dashes and parentheses after at most a short
 *   label: "Revenues $ 51,217 $ 46,710 10 %", or one cell "51,217" when each cell is a line):
 *   a unit of its own, never cut at its points and never joined to the prose around it, but
 *   for one-cell lines inside a sentence that has not ended, before a line going on with it
 *   ("approximately\n51\n% of our deferred revenue": a figure tagged on its own line);
 * - a short capitalised label followed by one-cell lines with at least two numbers ("Net
 *   revenues\n$\n6,362\n$\n6,318": a table shredded one cell per line) is one row;
 * - text. A line break ends a sentence (headings and list items stand alone), unless the next
 *   line goes on with it: it starts in lower case or with , ; : ) (an inline link or styled
 *   span broke the line: "Debt\n, and Note 13, ...", "EBIT Margin\n: Calculated as ...") and
 *   the line before does not end with ; or : (an unmarked list).
 * Within text, a full stop ends a sentence only when what follows starts one: "1.5",
 * "approx. five" and "e.g. the" never split; after an abbreviation that may also end a
 * sentence ("NIKE, Inc.", "the U.S.", an initial "J.", "Item 7.") it splits only before a word
 * that usually opens one ("The", "We", "In"...).
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

/** "Item 7. Management's Discussion", "Note 8. Debt": a reference, not a sentence's end. */
const NUMBERED = new Set('item items note notes part section rule article exhibit'.split(' '));

const OPENERS = new Set(
  `the a an we our us it its this that these those they their there in on at as for from
  during after before while although however because if when since additionally
  also furthermore moreover further in addition accordingly consequently each all any some
  many most such no other he she his her management net total revenues revenue sales`.split(/\s+/),
);

/** After "Item 7." only these open a sentence ("Management's Discussion" is a title). */
const PLAIN_OPENERS = new Set('the a an we our it its this these they there in'.split(' '));

const TERMINATOR = /[.!?\u2026]/;
const CLOSERS = /["'\u2019\u201d)\]]/;

/** Bullet glyphs (a mark with or without a space after it). */
const GLYPH =
  '[\u2022\u25cf\u25e6\u25aa\u25ab\u25a0\u25a1\u2023\u2043\u2219\u25cb\u25c6\u25c7\u27a2\u25ba]';
/** Marks that are ordinary characters too: they need a space (or the line's end) after them. */
const WORDY_MARK =
  '[-\u2013*]|\\((?:\\d{1,2}|[A-Za-z]|[ivxIVX]{2,5})\\)|(?:\\d{1,2}|[a-z]|[ivx]{2,5})[.)]';
const MARK_ALONE = new RegExp(`^(?:${GLYPH}|${WORDY_MARK})$`, 'u');
const MARK_START = new RegExp(
  `^(?:${GLYPH}\\s*|(?:${WORDY_MARK})\\s+|\u2014(?=\\p{Lu}))(?=\\S)`,
  'u',
);

/** A figure of a table: 51,217  $(1,130)  12.1%  (6)  —  $  % (never a word, never "2023."). */
function isFigure(token: string): boolean {
  const core = token.replace(/^[(\-\u2013\u2014$\u20ac\u00a3\u00a5]+/, '').replace(/[)%]+$/, '');
  return core === '' ? token !== '' : /^\d[\d,]*(?:\.\d+)?$/.test(core);
}

const MONTHS =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?$/i;

/** At most this many words label a table row. */
const MAX_LABEL = 12;

/**
 * A table row: every token a figure ("51,217", "$", "%", "(6)", "2023 2022"), or a short label
 * followed by at least two numbers ("Revenues $ 51,217 $ 46,710 10 %", "Cost of sales 28,925
 * 25,231 15 %"). "$314 million or 14%" and "as described in Note 5." are not.
 */
export function isTableRow(line: string): boolean {
  // Most lines are prose ending in a letter or a stop: no figure ends them.
  if (!/[\d$\u20ac\u00a3\u00a5%()\-\u2013\u2014]\s*$/.test(line)) return false;
  const tokens = line.trim().split(/\s+/).filter(Boolean);
  let k = tokens.length;
  while (k > 0 && isFigure(tokens[k - 1])) k--;
  if (k === tokens.length) return false;
  if (k === 0) return true;
  const numbers = tokens.slice(k).filter((t) => /\d/.test(t)).length;
  // A label is capitalised ("or outstanding as of April 28, 2023" goes on with a sentence) and
  // a date's month is not one ("Balances, April 30, 2021" is a row; "as of May 31, 2023" text).
  const label = tokens.slice(0, k);
  if (/^\p{Ll}/u.test(label[0]) || MONTHS.test(label[k - 1])) return false;
  return numbers >= 2 && k <= MAX_LABEL;
}

/** The word (letters, digits and inner dots) that ends just before `at`, lower-cased. */
function wordBefore(text: string, at: number): string {
  let i = at;
  while (i > 0 && /[\p{L}\p{N}.]/u.test(text[i - 1])) i--;
  return text.slice(i, at).toLowerCase().replace(/^\.+/, '');
}

/** The word before the word that ends at `at` ("item" in "Item 7"), lower-cased. */
function wordTwoBefore(text: string, at: number): string {
  let i = at;
  while (i > 0 && /[\p{L}\p{N}.]/u.test(text[i - 1])) i--;
  let j = i;
  while (j > 0 && /[^\S\n]/.test(text[j - 1])) j--;
  return j < i ? wordBefore(text, j) : '';
}

/** The next word after `at` (skipping opening quotes and brackets), within [at, end). */
function wordAfter(text: string, at: number, end: number): string {
  const m = /^["'\u2018\u201c([]*([\p{L}\p{N}]+)/u.exec(text.slice(at, Math.min(end, at + 40)));
  return m ? m[1] : '';
}

/** Whether the terminator run text[from, to) ends a sentence, given what follows at `next`. */
function endsSentence(text: string, from: number, to: number, next: number, end: number): boolean {
  const following = wordAfter(text, next, end);
  if (!following) return /^["'\u2018\u201c([]/.test(text[next] ?? '');
  const first = following[0];
  // A lower-case continuation never starts a sentence ("approx. five", "e.g. the").
  if (/\p{Ll}/u.test(first)) return false;
  if (text.slice(from, to) !== '.') return true;
  const before = wordBefore(text, from);
  if (NEVER_LAST.has(before)) return false;
  // "Item 7. Management's": a reference goes on, unless a heading in capitals follows
  // ("ITEM 1A. RISK FACTORS").
  if (/^\d+[a-z]?$/.test(before) && NUMBERED.has(wordTwoBefore(text, from))) {
    const capitals = following.length > 1 && following === following.toUpperCase();
    return capitals || PLAIN_OPENERS.has(following.toLowerCase());
  }
  // An initial ("J. Smith") or an abbreviation that may end a sentence.
  const maybe =
    MAYBE_LAST.has(before) || /^\p{L}$/u.test(before) || /^(\p{L}\.)+\p{L}$/u.test(before);
  if (!maybe) return true;
  // "divided by total NIKE, Inc. Revenues.": one word and a stop is no sentence.
  const oneWord = /^\p{L}+[.!?]/u.test(text.slice(next, Math.min(end, next + 40)));
  return OPENERS.has(following.toLowerCase()) && !oneWord;
}

/** Whether the character code is whitespace (what /\s/ matches), without a regex per character. */
const isSpace = (c: number) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x1680 ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** Trims whitespace off a span; null when nothing is left. */
function trimmed(text: string, start: number, end: number): SentenceSpan | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return s < e ? { start: s, end: e } : null;
}

/** The sentences of text[start, end) (one run of text, its line breaks inside sentences). */
function splitRun(text: string, start: number, end: number, out: SentenceSpan[]): void {
  let from = start;
  const push = (to: number) => {
    const span = trimmed(text, from, to);
    if (span) out.push(span);
    from = to;
  };
  const terminators = new RegExp(TERMINATOR.source, 'g');
  for (let i = start; i < end; i++) {
    terminators.lastIndex = i;
    const found = terminators.exec(text);
    if (!found || found.index >= end) break;
    i = found.index;
    let run = i + 1;
    while (run < end && TERMINATOR.test(text[run])) run++;
    let stop = run;
    while (stop < end && CLOSERS.test(text[stop])) stop++;
    // A terminator inside a token ("1.5", "U.S.A", "example.com") is not an end.
    if (stop < end && !isSpace(text.charCodeAt(stop))) {
      i = stop - 1;
      continue;
    }
    let next = stop;
    while (next < end && isSpace(text.charCodeAt(next))) next++;
    if (next >= end || endsSentence(text, i, run, next, end)) push(stop);
    i = stop - 1;
  }
  push(end);
}

type LineKind = 'mark' | 'row' | 'text';
/** A line with text: [start, end) trimmed; `item` where its unit starts (after a mark). */
type Line = { start: number; end: number; item: number; kind: LineKind; marked: boolean };

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const span = trimmed(text, at, nl);
    if (span) {
      const line = text.slice(span.start, span.end);
      const start = MARK_START.exec(line);
      const alone = line.length <= 6 && MARK_ALONE.test(line);
      const kind: LineKind = alone ? 'mark' : isTableRow(line) ? 'row' : 'text';
      const marked = kind === 'text' && start !== null;
      out.push({ ...span, item: span.start + (marked ? start[0].length : 0), kind, marked });
    }
    at = nl + 1;
  }
  return out;
}

/** Whether `line` goes on with the sentence of the text line before it. */
const continues = (text: string, before: Line, line: Line) =>
  !line.marked && /^[\p{Ll},;:)\]%]/u.test(text[line.start]) && !/[;:]/.test(text[before.end - 1]);

/**
 * Whether a line starting with a figure goes on with a sentence of three words or more whose
 * line ended in a lower-case letter ("Net revenue decrease\nd \n34% in 2023 compared to 2022").
 */
const figureGoesOn = (text: string, run: { start: number; last: Line }, line: Line) =>
  !line.marked &&
  /^[\p{N}$]/u.test(text[line.start]) &&
  /\p{Ll}$/u.test(text[run.last.end - 1]) &&
  text.slice(run.start, run.last.end).split(/\s+/).length >= 3;

/**
 * Whether the one-cell lines from `lines[i]` on are figures inside a sentence, each tagged on
 * its own line ("recognize as revenue approximately\n51\n% of our deferred revenue ... in the
 * next\n12\n months"): after text that has not ended, before text that goes on with it.
 * Returns the index of the last such line, or -1.
 */
function inlineFigures(text: string, lines: Line[], i: number, last: Line): number {
  if (/[.!?:;]/.test(text[last.end - 1])) return -1;
  let k = i;
  while (k < lines.length && lines[k].kind === 'row' && lines[k].end - lines[k].start <= 20) {
    if (/\s/.test(text.slice(lines[k].start, lines[k].end))) return -1;
    k++;
  }
  const next = lines[k];
  return k > i && next?.kind === 'text' && continues(text, lines[k - 1], next) ? k - 1 : -1;
}

/**
 * Whether a text line labels the one-cell lines after it, a table shredded one cell per line
 * ("Net revenues\n$\n6,362\n$\n6,318"): a short capitalised label that has not ended, then
 * figures with at least two numbers. Returns the index of the row's last cell, or -1.
 */
function labelledCells(text: string, lines: Line[], i: number): number {
  const label = text.slice(lines[i].start, lines[i].end);
  if (!/^\p{Lu}/u.test(label) || /[.!?:;,]$/.test(label)) return -1;
  if (label.split(/\s+/).length > MAX_LABEL) return -1;
  let k = i + 1;
  let numbers = 0;
  while (k < lines.length && lines[k].kind !== 'text') {
    const cell = text.slice(lines[k].start, lines[k].end);
    if (lines[k].kind === 'mark' && !isTableRow(cell) && !isFigure(cell)) break;
    if (cell.split(/\s+/).length > 2) break;
    if (/\d/.test(cell)) numbers++;
    k++;
  }
  return numbers >= 2 ? k - 1 : -1;
}

/** The sentences of a text, in order, as spans of it (text.slice(start, end) is the sentence). */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  const lines = linesOf(text);
  // The run of text lines being read (one or more sentences), and its last line.
  let run: { start: number; end: number; last: Line } | null = null;
  const flush = () => {
    if (run) splitRun(text, run.start, run.end, out);
    run = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.kind === 'mark') {
      const item = lines[i + 1];
      flush();
      if (item?.kind === 'text') {
        run = { start: item.item, end: item.end, last: item };
        i++;
      } else if (isTableRow(text.slice(line.start, line.end))) {
        // "(6)" or "–" among a table's cells.
        out.push({ start: line.start, end: line.end });
      }
      continue;
    }
    const inline: number =
      line.kind === 'row' && run ? inlineFigures(text, lines, i, run.last) : -1;
    if (run && inline >= 0) {
      run = { start: run.start, end: lines[inline].end, last: lines[inline] };
      i = inline;
      continue;
    }
    if (line.kind === 'row') {
      flush();
      out.push({ start: line.start, end: line.end });
      continue;
    }
    if (run && (continues(text, run.last, line) || figureGoesOn(text, run, line))) {
      run = { start: run.start, end: line.end, last: line };
      continue;
    }
    const cells = line.marked ? -1 : labelledCells(text, lines, i);
    if (cells >= 0) {
      flush();
      out.push({ start: line.start, end: lines[cells].end });
      i = cells;
      continue;
    }
    flush();
    run = { start: line.item, end: line.end, last: line };
  }
  flush();
  return out;
}
