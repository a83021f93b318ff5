/**
 * A document's plain text cut into passages for the assistant's retrieval and for citing exact
 * spans: at paragraph boundaries first, then at sentence ends, then (a sentence longer than a
 * passage) at a word boundary. Each passage is a span [start, end) of the text itself, so
 * `text.slice(start, end)` is the passage: no whitespace at either end, nothing rewritten.
 */

export type PassageSpan = { ordinal: number; start: number; end: number };

/** Short paragraphs join their neighbours until a passage holds at least this many characters. */
export const MIN_PASSAGE = 300;
/** Sentences join until about this many characters. */
const TARGET_PASSAGE = 800;
/** No passage is longer, unless the document would need more than MAX_PASSAGES of them. */
export const MAX_PASSAGE = 1200;
/** Passage ids are `seq * 1024 + ordinal` (sqlite.ts): at most this many per document. */
export const MAX_PASSAGES = 1024;

type Span = { start: number; end: number };

/** [start, end) with the whitespace at both ends left out; null when only whitespace. */
const trimmed = (text: string, start: number, end: number): Span | null => {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return s < e ? { start: s, end: e } : null;
};

/** Paragraphs: runs of text between blank lines. */
const paragraphsOf = (text: string): Span[] => {
  const out: Span[] = [];
  const gap = /\n[^\S\n]*\n\s*/g;
  let from = 0;
  for (let m = gap.exec(text); m; m = gap.exec(text)) {
    const span = trimmed(text, from, m.index);
    if (span) out.push(span);
    from = m.index + m[0].length;
  }
  const last = trimmed(text, from, text.length);
  if (last) out.push(last);
  return out;
};

/** A sentence ends after . ! ? or … (and any closing quotes or brackets) before whitespace. */
const SENTENCE_END = /[.!?\u2026]+["'\u2019\u201d)\]]*(?=\s)/g;

const sentencesOf = (text: string, para: Span): Span[] => {
  const out: Span[] = [];
  const body = text.slice(para.start, para.end);
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(body); m; m = SENTENCE_END.exec(body)) {
    const span = trimmed(text, para.start + from, para.start + m.index + m[0].length);
    if (span) out.push(span);
    from = m.index + m[0].length;
  }
  const last = trimmed(text, para.start + from, para.end);
  if (last) out.push(last);
  return out;
};

/** A span longer than MAX_PASSAGE cut at the last whitespace before each limit. */
const hardSplit = (text: string, span: Span): Span[] => {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > MAX_PASSAGE) {
    let cut = start + MAX_PASSAGE;
    while (cut > start + MIN_PASSAGE && !/\s/.test(text[cut])) cut--;
    if (cut <= start + MIN_PASSAGE) cut = start + MAX_PASSAGE;
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
 * it stays within `target`; it never grows past MAX_PASSAGE.
 */
const pack = (spans: Span[], min: number, target: number): Span[] => {
  const out: Span[] = [];
  let cur: Span | null = null;
  for (const s of spans) {
    if (cur && s.end - cur.start <= MAX_PASSAGE) {
      const short = cur.end - cur.start < min;
      if (short || s.end - cur.start <= target) {
        cur = { start: cur.start, end: s.end };
        continue;
      }
    }
    if (cur) out.push(cur);
    cur = s;
  }
  if (cur) {
    // A short tail joins the passage before it when they fit together.
    const prev = out[out.length - 1];
    if (prev && cur.end - cur.start < min && cur.end - prev.start <= MAX_PASSAGE) {
      out[out.length - 1] = { start: prev.start, end: cur.end };
    } else {
      out.push(cur);
    }
  }
  return out;
};

/** The passages of a text, in order; none for a text of only whitespace. */
export function splitPassages(text: string): PassageSpan[] {
  const pieces: Span[] = [];
  for (const para of paragraphsOf(text)) {
    if (para.end - para.start <= MAX_PASSAGE) {
      pieces.push(para);
      continue;
    }
    // A long paragraph becomes passages of its sentences; its first and last pieces may join
    // short neighbouring paragraphs below.
    const sentences = sentencesOf(text, para).flatMap((s) =>
      s.end - s.start > MAX_PASSAGE ? hardSplit(text, s) : [s],
    );
    pieces.push(...pack(sentences, MIN_PASSAGE, TARGET_PASSAGE));
  }
  let spans = pack(pieces, MIN_PASSAGE, MIN_PASSAGE);
  if (spans.length > MAX_PASSAGES) {
    // Only a pathological text gets here: the rest of it is one (long) last passage.
    const last = { start: spans[MAX_PASSAGES - 1].start, end: spans[spans.length - 1].end };
    spans = [...spans.slice(0, MAX_PASSAGES - 1), last];
  }
  return spans.map((s, ordinal) => ({ ordinal, start: s.start, end: s.end }));
}
