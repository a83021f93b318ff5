import type { TextSpan } from '../../contract/search';
import { fold, stem, wordSpans } from '../../contract/words';
import { markedTerms, type KeywordExpr } from '../../contract/keyword-query';

/**
 * Highlights of a search result, computed here for both engines alike: the query's words and
 * phrases are found in the document's full plain text with the tokeniser and the stems the
 * index uses (contract/words.ts: runs of letters and digits, lower-cased, diacritics folded,
 * matched by stem: "employ" marks "employed"), so what is marked is what matched.
 * Snippets are HTML whose only markup is `<em>`: every other character of the document is
 * escaped. Spans are UTF-16 offsets into the plain text (DocumentDetail.body), as the preview
 * reads it.
 */

/** A query term as matched: the stem of each of its words, in order (a phrase: several). */
export type MatchTerm = readonly string[];

export type Highlight = {
  highlights: string[];
  highlight_indexes: TextSpan[];
  passage: TextSpan | null;
};

/** Snippets per result, their length, and how much of a snippet comes before its first match. */
export const MAX_SNIPPETS = 3;
export const SNIPPET_CHARS = 200;
const LEAD_CHARS = 60;
/** Match spans returned per result (the preview marks these). */
export const MAX_SPANS = 200;

/** A word as the index holds it: accents folded as the engines fold them, lower case. */
export const foldWord = (word: string): string => fold(word).toLowerCase();

/**
 * The terms a document is highlighted for: contract/keyword-query.ts `markedTerms`, the one
 * rule the preview's marks follow too (every word or phrase not negated, as its stems).
 */
export const matchTerms: (expr: KeywordExpr | null) => MatchTerm[] = markedTerms;

/** A word of the text by its stem, where it stands in the text. */
type Token = { stem: string; start: number; end: number };

const tokensOf = (text: string): Token[] =>
  wordSpans(text).map((w) => ({ stem: stem(w.word), start: w.start, end: w.end }));

type Match = TextSpan & { term: number };

/** Every match of the terms in the text, in text order, overlaps dropped, at most MAX_SPANS. */
function findMatches(text: string, terms: MatchTerm[]): Match[] {
  // Terms by the stem of their first word, so each token is checked only against terms that
  // can start with it (a long query must not cost tokens x terms).
  const byFirst = new Map<string, number[]>();
  terms.forEach((term, i) => {
    if (term.length === 0) return;
    const list = byFirst.get(term[0]);
    if (list) list.push(i);
    else byFirst.set(term[0], [i]);
  });
  const tokens = tokensOf(text);
  const out: Match[] = [];
  let covered = 0;
  for (let i = 0; i < tokens.length && out.length < MAX_SPANS; i++) {
    const candidates = byFirst.get(tokens[i].stem);
    if (!candidates || tokens[i].start < covered) continue;
    let best: Match | null = null;
    for (const t of candidates) {
      const term = terms[t];
      if (i + term.length > tokens.length) continue;
      let ok = true;
      for (let k = 1; k < term.length && ok; k++) ok = term[k] === tokens[i + k].stem;
      const end = tokens[i + term.length - 1].end;
      // The longest match wins where terms start at one word ("rate" and "rate cut").
      if (ok && (!best || end > best.end)) best = { start: tokens[i].start, end, term: t };
    }
    if (best) {
      out.push(best);
      covered = best.end;
    }
  }
  return out;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Escaped for HTML, runs of white space (line breaks too) as one space. */
const escapeText = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(/\s+/g, ' ');

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** `at` moved back to the start of the word it falls in (never before 0). */
const wordStart = (text: string, at: number) => {
  let i = Math.max(0, at);
  while (i > 0 && isWordChar(text[i - 1]) && isWordChar(text[i])) i--;
  return i;
};
/** `at` moved on to the end of the word it falls in (never past the text). */
const wordEnd = (text: string, at: number) => {
  let i = Math.min(text.length, at);
  while (i < text.length && isWordChar(text[i - 1]) && isWordChar(text[i])) i++;
  return i;
};

type Window = { start: number; end: number; first: number; last: number; score: number };

/** The window a snippet shows when it opens at match `i`: as many matches as fit. */
function windowAt(text: string, matches: Match[], i: number): Window {
  const start = wordStart(text, matches[i].start - LEAD_CHARS);
  let end = Math.max(matches[i].end, start + SNIPPET_CHARS);
  let last = i;
  while (last + 1 < matches.length && matches[last + 1].start < end) last++;
  end = wordEnd(text, Math.max(end, matches[last].end));
  const terms = new Set<number>();
  for (let k = i; k <= last; k++) terms.add(matches[k].term);
  // Distinct terms first (a snippet showing each part of the query), then how many matches.
  return { start, end, first: i, last, score: terms.size * 1000 + (last - i + 1) };
}

function snippetHtml(text: string, w: Window, matches: Match[]): string {
  let html = w.start > 0 ? '…' : '';
  let at = w.start;
  for (let k = w.first; k <= w.last; k++) {
    const m = matches[k];
    html += `${escapeText(text.slice(at, m.start))}<em>${escapeText(text.slice(m.start, m.end))}</em>`;
    at = m.end;
  }
  html += escapeText(text.slice(at, w.end));
  return (w.end < text.length ? `${html}…` : html).trim();
}

/** The best snippets (at most MAX_SNIPPETS, not overlapping), in text order. */
function snippets(text: string, matches: Match[]): string[] {
  const windows = matches
    .map((_, i) => windowAt(text, matches, i))
    .sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: Window[] = [];
  for (const w of windows) {
    if (chosen.length === MAX_SNIPPETS) break;
    if (chosen.every((c) => w.end <= c.start || w.start >= c.end)) chosen.push(w);
  }
  return chosen.sort((a, b) => a.start - b.start).map((w) => snippetHtml(text, w, matches));
}

/** The passage holding the most distinct terms, then the most matches; the first on a tie. */
function bestPassage(passages: readonly TextSpan[], matches: Match[]): TextSpan | null {
  let best: TextSpan | null = passages[0] ?? null;
  let bestScore = 0;
  for (const p of passages) {
    const inside = matches.filter((m) => m.start >= p.start && m.end <= p.end);
    const score = new Set(inside.map((m) => m.term)).size * 1000 + inside.length;
    if (score > bestScore) {
      best = p;
      bestScore = score;
    }
  }
  return best ? { start: best.start, end: best.end } : null;
}

/**
 * A result's highlights: snippets around the matches, every match's span (at most MAX_SPANS),
 * and the best of the document's passages (null without terms). A document that matched
 * only by its title has no marked snippets; its passage is its first.
 */
export function highlightText(
  text: string,
  terms: MatchTerm[],
  passages: readonly TextSpan[],
): Highlight {
  if (terms.length === 0) return { highlights: [], highlight_indexes: [], passage: null };
  const matches = findMatches(text, terms);
  return {
    highlights: snippets(text, matches),
    highlight_indexes: matches.map((m) => ({ start: m.start, end: m.end })),
    passage: bestPassage(passages, matches),
  };
}
