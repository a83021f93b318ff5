import type { TextSpan } from '../../../contract/search';
import { markedTerms, parseKeywordQuery } from '../../../contract/keyword-query';
import { stem, wordSpans } from '../../../contract/words';

/**
 * Marks what a search matched inside a rendered document (the preview). Search answers the
 * matches as spans of the document's plain text (`highlight_indexes`); the preview shows its
 * HTML, whose text is the same text laid out in elements. The spans are carried over when the
 * two texts agree character for character once whitespace is set aside (the usual case: the
 * plain text is made from the HTML); otherwise, or with no spans at all (a preview opened from
 * a link that only names the search term), the matched words are marked wherever they occur.
 * Words are read and compared as search reads them (contract/words.ts: letters and digits,
 * lower-cased, accents folded, the same word when the stems are: "employ" marks "employed").
 */

export type PreviewHighlight = {
  /** Spans of the document's plain text; null when only the term is known. */
  spans: readonly TextSpan[] | null;
  /** The query searched, for marking by words when the spans cannot be placed. */
  term: string | null;
};

export const MARK_CLASS = 'search-mark';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as HTML paragraphs (blank lines part them), everything escaped. */
export function plainTextHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('');
}

/**
 * The words a query looks for, as their STEMS: contract/keyword-query.ts `markedTerms`, the
 * rule search highlights by (its words and its phrases' words; not operators, and not what it
 * excludes: `-word`, `NOT word`, `NOT (...)`).
 */
export function queryWords(term: string): Set<string> {
  return new Set(markedTerms(parseKeywordQuery(term).expr).flat());
}

function textNodes(root: HTMLElement): Text[] {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  return nodes;
}

/** Wraps [from, to) ranges of one text node (sorted, not overlapping) in marks. */
function wrap(node: Text, ranges: Array<[number, number]>, marks: HTMLElement[]) {
  const made: HTMLElement[] = [];
  // Right to left, so the node keeps the text before each range and earlier offsets hold.
  for (const [from, to] of [...ranges].reverse()) {
    const middle = node.splitText(from);
    middle.splitText(to - from);
    const mark = node.ownerDocument.createElement('mark');
    mark.className = MARK_CLASS;
    mark.textContent = middle.data;
    middle.replaceWith(mark);
    made.unshift(mark);
  }
  marks.push(...made);
}

/** Places plain-text spans in the rendered text, or null when the texts do not agree. */
function placeSpans(
  nodes: Text[],
  plain: string,
  spans: readonly TextSpan[],
): Map<Text, Array<[number, number]>> | null {
  // Every non-space character of the plain text, and where the same one is rendered.
  const plainAt: number[] = [];
  for (let i = 0; i < plain.length; i += 1) if (!/\s/.test(plain[i])) plainAt.push(i);
  const rendered: Array<[number, number]> = [];
  nodes.forEach((node, n) => {
    for (let i = 0; i < node.data.length; i += 1)
      if (!/\s/.test(node.data[i])) rendered.push([n, i]);
  });
  if (plainAt.length !== rendered.length) return null;
  for (let k = 0; k < plainAt.length; k += 1) {
    const [n, i] = rendered[k];
    if (plain[plainAt[k]].toLowerCase() !== nodes[n].data[i].toLowerCase()) return null;
  }
  const ranges = new Map<Text, Array<[number, number]>>();
  for (const span of spans) {
    // The span's first and last non-space characters, by their rank among all of them.
    let first = lowerBound(plainAt, span.start);
    const last = lowerBound(plainAt, span.end) - 1;
    while (first <= last) {
      const [n, i] = rendered[first];
      let k = first;
      while (k + 1 <= last && rendered[k + 1][0] === n) k += 1;
      const list = ranges.get(nodes[n]) ?? [];
      list.push([i, rendered[k][1] + 1]);
      ranges.set(nodes[n], list);
      first = k + 1;
    }
  }
  return ranges;
}

function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sorted, merged ranges (spans may overlap or touch). */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** Marks every word of the text whose stem is one of `stems` (queryWords). */
function markWords(nodes: Text[], stems: ReadonlySet<string>, marks: HTMLElement[]) {
  if (stems.size === 0) return;
  for (const node of nodes) {
    const ranges: Array<[number, number]> = [];
    for (const w of wordSpans(node.data)) {
      // A run folding into several words is one range: mark it once.
      if (stems.has(stem(w.word)) && ranges.at(-1)?.[0] !== w.start) {
        ranges.push([w.start, w.end]);
      }
    }
    if (ranges.length > 0) wrap(node, ranges, marks);
  }
}

/**
 * Marks the matches of `highlight` in `root`'s text (`plain` is the document's plain text, the
 * text the spans index). Returns the marks in document order; `clearMarks` undoes them.
 */
export function markMatches(
  root: HTMLElement,
  plain: string,
  highlight: PreviewHighlight,
): HTMLElement[] {
  const nodes = textNodes(root);
  const marks: HTMLElement[] = [];
  const spans = (highlight.spans ?? []).filter((s) => s.end > s.start && s.end <= plain.length);
  if (spans.length > 0) {
    const placed = placeSpans(nodes, plain, spans);
    if (placed) {
      for (const node of nodes) {
        const ranges = placed.get(node);
        if (ranges) wrap(node, merged(ranges), marks);
      }
      return marks;
    }
    // The texts differ: mark the words the spans matched wherever they occur.
    const words = new Set(spans.map((s) => plain.slice(s.start, s.end).toLowerCase()));
    markWords(nodes, queryWords([...words].join(' ')), marks);
    return marks;
  }
  markWords(nodes, queryWords(highlight.term ?? ''), marks);
  return marks;
}

/** Removes the marks `markMatches` made, joining each back into the text around it. */
export function clearMarks(root: HTMLElement) {
  for (const mark of [...root.querySelectorAll(`mark.${MARK_CLASS}`)]) {
    const before = mark.previousSibling;
    const text = mark.textContent ?? '';
    if (before instanceof Text) {
      before.appendData(text);
      mark.remove();
      const after = before.nextSibling;
      if (after instanceof Text) {
        before.appendData(after.data);
        after.remove();
      }
    } else {
      mark.replaceWith(text);
    }
  }
}
