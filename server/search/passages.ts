import { isTableRow, splitSentences } from './sentences';

/**
 * A document's plain text cut into passages for the assistant's retrieval and for citing exact
 * spans. Passages are made of whole sentences (sentences.ts, the splitter the assistant quotes
 * with: a bullet item, a table row and a heading are each a unit of their own), so a passage
 * starts where a sentence starts and ends where one ends; only a single sentence longer than a
 * passage is cut inside, at a word boundary. Paragraphs (blank lines) stay whole when they fit,
 * then lines (a filing's section is one line per paragraph), then sentences join up to about
 * TARGET_PASSAGE; short pieces join their neighbours, and a heading joins what it heads. Each passage is a span [start, end) of the
 * text itself, so `text.slice(start, end)` is the passage: no whitespace at either end, nothing
 * rewritten.
 *
 * The whole text always gets passages, however long: a text that would need more than
 * MAX_PASSAGES of them (more than about 800,000 characters) has all its sizes scaled up until
 * MAX_PASSAGES suffice (a 1.5M-character text: passages of about 1,500-2,900 characters).
 */

export type PassageSpan = { ordinal: number; start: number; end: number };

/** Short paragraphs join their neighbours until a passage holds at least this many characters. */
export const MIN_PASSAGE = 300;
/** Sentences join until about this many characters. */
const TARGET_PASSAGE = 800;
/** No passage is longer, unless the document would need more than MAX_PASSAGES of them. */
export const MAX_PASSAGE = 1200;
/**
 * Passage ids are `seq * 1024 + ordinal` (indexing.ts passageId, and the ranges of sqlite.ts,
 * engine-base.ts and the delete trigger of migration 0011): at most this many per document.
 */
export const MAX_PASSAGES = 1024;

type Span = { start: number; end: number };
type Sizes = { min: number; target: number; max: number };

const len = (s: Span) => s.end - s.start;
const joined = (a: Span, b: Span): Span => ({ start: a.start, end: b.end });

/** [start, end) with the whitespace at both ends left out; null when only whitespace. */
const trimmed = (text: string, start: number, end: number): Span | null => {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return s < e ? { start: s, end: e } : null;
};

/** A sentence longer than `max` cut at the last whitespace before each limit. */
const hardSplit = (text: string, span: Span, { min, max }: Sizes): Span[] => {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > max) {
    let cut = start + max;
    while (cut > start + min && !/\s/.test(text[cut])) cut--;
    if (cut <= start + min) cut = start + max;
    const piece = trimmed(text, start, cut);
    if (piece) out.push(piece);
    const next = trimmed(text, cut, span.end);
    if (!next) return out;
    start = next.start;
  }
  out.push({ start, end: span.end });
  return out;
};

/**
 * Joins consecutive spans: the current passage grows while it is shorter than `min`, or while
 * it stays within `target`; it never grows past `max`.
 */
const pack = (spans: Span[], min: number, target: number, max: number): Span[] => {
  const out: Span[] = [];
  let cur: Span | null = null;
  for (const s of spans) {
    if (cur && s.end - cur.start <= max) {
      if (len(cur) < min || s.end - cur.start <= target) {
        cur = joined(cur, s);
        continue;
      }
    }
    if (cur) out.push(cur);
    cur = s;
  }
  if (cur) {
    // A short tail joins the passage before it when they fit together.
    const prev = out[out.length - 1];
    if (prev && len(cur) < min && cur.end - prev.start <= max) {
      out[out.length - 1] = joined(prev, cur);
    } else {
      out.push(cur);
    }
  }
  return out;
};

/** A unit (a sentence, or a piece of one too long for a passage) and the break before it. */
type Unit = Span & { gap: number };

/** The break between two units: 2 a blank line (a paragraph), 1 a line break, 0 none. */
const gapOf = (text: string, from: number, to: number) => {
  const between = text.slice(from, to);
  return /\n[^\S\n]*\n/.test(between) ? 2 : between.includes('\n') ? 1 : 0;
};

/** Consecutive units cut before every unit whose break is at least `level`. */
const groups = (units: Unit[], level: number): Unit[][] => {
  const out: Unit[][] = [];
  for (const u of units) {
    if (out.length === 0 || u.gap >= level) out.push([u]);
    else out[out.length - 1].push(u);
  }
  return out;
};

const spanOf = (units: Unit[]): Span => ({
  start: units[0].start,
  end: units[units.length - 1].end,
});

/** A heading: a short unit with no final stop ("FINANCIAL HIGHLIGHTS", "Consumer Spending:"). */
const isHeading = (text: string, span: Span) => {
  if (len(span) > 100) return false;
  const s = text.slice(span.start, span.end);
  return (
    s.split(/\s+/).length <= 12 && !/[.!?\u2026]["'\u2019\u201d)\]]*$/.test(s) && !isTableRow(s)
  );
};

/** One cell of a table whose cells are lines of their own: "$", "51,217", "%", "(6)". */
const isCell = (text: string, span: Span) => {
  const s = text.slice(span.start, span.end);
  return !/\s/.test(s) && isTableRow(s);
};

/**
 * A heading binds to the unit after it (a passage never ends on a heading, or on a table's
 * label cut from its figures), and a table's cell to the next cell (a filing with a line per
 * cell keeps a row's "$", "51,217", "10" and "%" together), unless together they would pass
 * `max`.
 */
const bindHeadings = (text: string, units: Unit[], max: number): Unit[] => {
  const out: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    let unit = units[i];
    let last: Span = unit;
    while (
      i + 1 < units.length &&
      (isHeading(text, last) || (isCell(text, last) && isCell(text, units[i + 1]))) &&
      units[i + 1].end - unit.start <= max
    ) {
      last = units[++i];
      unit = { start: unit.start, end: last.end, gap: unit.gap };
    }
    out.push(unit);
  }
  return out;
};

/** The passages of the units at the given sizes. */
const passagesAt = (units: Unit[], { min, target, max }: Sizes): Span[] => {
  const pieces: Span[] = [];
  for (const para of groups(units, 2)) {
    if (len(spanOf(para)) <= max) {
      pieces.push(spanOf(para));
      continue;
    }
    // A long paragraph: its lines whole when they fit, else their sentences joined up to the
    // target. The first and last pieces may join short neighbours below.
    for (const line of groups(para, 1)) {
      if (len(spanOf(line)) <= max) pieces.push(spanOf(line));
      else pieces.push(...pack(line, min, target, max));
    }
  }
  return pack(pieces, min, min, max);
};

/** The passages of a text, in order, to its end; none for a text of only whitespace. */
export function splitPassages(text: string): PassageSpan[] {
  const sentences = splitSentences(text);
  let sizes: Sizes = { min: MIN_PASSAGE, target: TARGET_PASSAGE, max: MAX_PASSAGE };
  for (;;) {
    const units: Unit[] = [];
    let last = 0;
    for (const s of sentences) {
      const gap = gapOf(text, last, s.start);
      const pieces = len(s) > sizes.max ? hardSplit(text, s, sizes) : [s];
      pieces.forEach((p, i) => units.push({ ...p, gap: i === 0 ? gap : 0 }));
      last = s.end;
    }
    const spans = passagesAt(bindHeadings(text, units, sizes.max), sizes);
    if (spans.length <= MAX_PASSAGES) {
      return spans.map((s, ordinal) => ({ ordinal, start: s.start, end: s.end }));
    }
    // Too many for the id scheme: larger passages, until MAX_PASSAGES hold the whole text.
    const scale = Math.max(1.25, spans.length / MAX_PASSAGES);
    sizes = {
      min: Math.ceil(sizes.min * scale),
      target: Math.ceil(sizes.target * scale),
      max: Math.ceil(sizes.max * scale),
    };
  }
}
