import {
  citationLink,
  citationPreviewHref,
  clickableUrl,
  parseCitationLink,
  type AskAnswer,
  type Citation,
  type DocumentHighlight,
  type TextSpan,
} from '../../../contract/assistant';
import { formatDate } from '../../lib/format';
import { overlaySearch } from '../../lib/overlay';

/** The default citation text (001 §8) when a citation quotes nothing. */
export const DEFAULT_CITATION_TEXT = 'Click the "View Source" button to view the original content.';
/** Words shown around each highlight of a citation's passage (001 §9). */
export const WORDS_BEFORE = 5;
export const WORDS_AFTER = 6;

/** The answer's citations by number, each once, in number order. */
export function citationsOf(data: AskAnswer | null): Citation[] {
  if (!data) return [];
  const byId = new Map<string, Citation>();
  for (const sentence of data.generated_answer.sentences) {
    for (const citation of sentence.citations) {
      if (!byId.has(citation.id)) byId.set(citation.id, citation);
    }
  }
  return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * The PDF viewer's parameters for a cited passage (001 §2): `boundingBox` is a JSON array of 4
 * numbers, the passage's box on its page as [left, top, right, bottom] in the page's units (the
 * smallest box holding the 4 corners), and `pageNumber` its page.
 */
export function viewerParams(highlight: DocumentHighlight | null): Record<string, string> {
  if (!highlight) return {};
  const xs = highlight.coordinates.map((p) => p.x);
  const ys = highlight.coordinates.map((p) => p.y);
  const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  return { boundingBox: JSON.stringify(box), pageNumber: String(highlight.page_number) };
}

/** The viewer's parameters read back; anything malformed reads as absent. */
export function parseViewerParams(params: Record<string, string | undefined>): {
  boundingBox: [number, number, number, number] | null;
  pageNumber: number | null;
} {
  let boundingBox: [number, number, number, number] | null = null;
  try {
    const box: unknown = JSON.parse(params.boundingBox ?? 'null');
    if (Array.isArray(box) && box.length === 4 && box.every((n) => Number.isFinite(n))) {
      boundingBox = box as [number, number, number, number];
    }
  } catch {
    boundingBox = null;
  }
  const page = Number(params.pageNumber);
  return { boundingBox, pageNumber: Number.isInteger(page) && page >= 1 ? page : null };
}

/** The most spans a `highlight` parameter carries; more are not read. */
const MAX_HIGHLIGHT_SPANS = 20;

/**
 * The `highlight` parameter of a preview address, `start-end` spans of the document's plain text
 * joined by commas (`120-184,185-240`), read back in order; null when none is well formed.
 */
export function parseHighlightParam(value: string | undefined): TextSpan[] | null {
  const spans: TextSpan[] = [];
  for (const part of (value ?? '').split(',').slice(0, MAX_HIGHLIGHT_SPANS)) {
    const match = /^(\d{1,9})-(\d{1,9})$/.exec(part.trim());
    if (!match) continue;
    const start = Number(match[1]);
    const end = Number(match[2]);
    if (end > start) spans.push({ start, end });
  }
  return spans.length > 0 ? spans : null;
}

/**
 * What a citation marks in its document (issue 18): the spans of the passage that support the
 * cited sentence (`highlight_indexes`, offsets in `context`, the passage's text), moved into the
 * document's plain text by the passage's start. The whole passage only when the citation names
 * no supporting span.
 */
export function citedSpans(
  c: Pick<Citation, 'context' | 'highlight_indexes' | 'passage'>,
): TextSpan[] {
  const spans = c.highlight_indexes
    .filter((s) => s.end > s.start && s.start >= 0 && s.end <= c.context.length)
    .sort((a, b) => a.start - b.start)
    .map((s) => ({ start: c.passage.start + s.start, end: c.passage.start + s.end }));
  return spans.length > 0 ? spans : [c.passage];
}

/** Spans as a preview's `highlight` parameter (parseHighlightParam reads it back). */
export const highlightParam = (spans: readonly TextSpan[]) =>
  spans.map((s) => `${s.start}-${s.end}`).join(',');

/**
 * Where a citation opens: the preview overlay's query (overlay-type=preview with the document's
 * source, category and deeplink, the cited sentence's spans to mark as `highlight`, the viewer's
 * page and box) and the full-screen preview's address. Null when citationPreviewHref makes no
 * link (no source, document, key or category tab).
 */
export function citationTarget(
  c: Citation,
): { href: string; overlay: Record<string, string>; page: Record<string, string> } | null {
  const href = citationPreviewHref(c);
  if (!href || !c.category_tab) return null;
  const viewer = viewerParams(c.document_highlight);
  // The sentence's support, not the whole passage citationPreviewHref names.
  const highlight = highlightParam(citedSpans(c));
  const params: Record<string, string> = {
    source: c.source,
    // The preview overlay requires a category; a citation's category is its tab.
    category: c.category_tab,
    deeplink: c.document_id,
    category_tab: c.category_tab,
    highlight,
    ...viewer,
  };
  if (c.access_key) params.access_key = c.access_key;
  if (c.channel_id) params.channel_id = c.channel_id;
  const [path, query = ''] = href.split('?');
  const page = { ...Object.fromEntries(new URLSearchParams(query)), highlight, ...viewer };
  return { href: path, overlay: overlaySearch('preview', params), page };
}

/** A citation as it travels in a sources list: `label:: url` (001 §2). */
export function citationString(c: Citation): string {
  return citationLink(c.title_label.trim() || c.source_label, c.url ?? '');
}

/** The label of a `label:: url` string and its address when clickable (http or https only). */
export function sourceLink(value: string): { label: string; href: string | null } {
  const { label, url } = parseCitationLink(value);
  return { label, href: url ? clickableUrl(url, 'invalid:/') : null };
}

/** The date a citation shows: en-GB short format (001 §9), e.g. "3 Mar 2024", as every screen. */
export function citationDate(unix: number): string {
  return formatDate(new Date(unix * 1000));
}

export type ExcerptPart = { text: string; marked: boolean };

/**
 * What a citation shows of its passage: each highlight with about 5 words before and 6 after
 * (001 §9), joined by ellipses; the default text when it quotes nothing.
 */
export function citationExcerpt(
  c: Pick<Citation, 'context' | 'highlight_indexes'>,
): ExcerptPart[][] {
  const context = c.context;
  const spans = c.highlight_indexes
    .filter((s) => s.end > s.start && s.end <= context.length)
    .sort((a, b) => a.start - b.start);
  if (!context.trim()) return [[{ text: DEFAULT_CITATION_TEXT, marked: false }]];
  if (spans.length === 0)
    return [[{ text: wordsFrom(context, 0, WORDS_BEFORE + WORDS_AFTER), marked: false }]];
  return spans.map((span) => [
    { text: lastWords(context.slice(0, span.start), WORDS_BEFORE), marked: false },
    { text: context.slice(span.start, span.end), marked: true },
    { text: wordsFrom(context, span.end, WORDS_AFTER), marked: false },
  ]);
}

function lastWords(text: string, count: number): string {
  const words = text.split(/(\s+)/);
  // Split with a capture keeps the spaces: 2 entries per word.
  const kept = words.slice(Math.max(0, words.length - count * 2));
  return (words.length > kept.length ? '…' : '') + kept.join('');
}

function wordsFrom(text: string, at: number, count: number): string {
  const words = text.slice(at).split(/(\s+)/);
  const kept = words.slice(0, count * 2);
  return kept.join('') + (words.length > kept.length ? '…' : '');
}
