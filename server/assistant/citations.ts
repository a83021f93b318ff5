import {
  citationPreviewHref,
  documentLinkKey,
  type AnswerSentence,
  type AskSearchResult,
  type Citation,
  type DocumentHighlight,
} from '../../contract/assistant';
import type { Database, Db } from '../db/schema';
import { driveKeyOf } from '../uploads';
import { highlightText, matchTerms, splitPassages, type SearchExpr } from '../search';
import type { AnsweredSentence, RetrievedPassage } from './answerer';
import type { AskDocument } from './retrieve';

/**
 * What an answer's DONE carries besides its text: each cited passage as a full Citation (001
 * §3), and each document read as a search result with highlights. Access goes through the
 * document's source (access_key = its source id, as on result cards); sharing does not exist
 * yet (public_access_key null). A passage of an uploaded PDF cites its box on the page
 * (document_highlight, from document_regions); every other passage has none (null).
 */

/** Where a span of an uploaded document's plain text lies on its page (document_regions). */
export type PassageRegion = Omit<Database['document_regions'], 'document_id' | 'ordinal' | 'kind'>;

/**
 * The box of [start, end) of a document's plain text on its page (001 §3 document_highlight),
 * or null when that text has no box (not a PDF, or no region holds it). The regions on the page
 * of the first region it overlaps are joined. `coordinates` are the box's 4 corners (top-left,
 * top-right, bottom-right, bottom-left) in PDF points from the page's top-left corner, y down;
 * `width` and `height` are the page's size in the same points (what the corners are measured
 * against, so a viewer scales them by its rendered width / `width`); `page_number` is 1-based.
 * The viewer's `boundingBox` is [x0, y0, x1, y1] = [corner 0 x, corner 0 y, corner 2 x, corner 2 y].
 */
export function documentHighlightOf(
  regions: readonly PassageRegion[],
  start: number,
  end: number,
): DocumentHighlight | null {
  const placed = regions.filter(
    (r) =>
      r.span_start < Math.max(end, start + 1) &&
      r.span_end > start &&
      r.page !== null &&
      r.x0 !== null &&
      r.y0 !== null &&
      r.x1 !== null &&
      r.y1 !== null &&
      r.page_width !== null &&
      r.page_height !== null,
  );
  if (placed.length === 0) return null;
  placed.sort((a, b) => a.span_start - b.span_start);
  const first = placed[0]!;
  const onPage = placed.filter((r) => r.page === first.page);
  const x0 = Math.min(...onPage.map((r) => r.x0!));
  const y0 = Math.min(...onPage.map((r) => r.y0!));
  const x1 = Math.max(...onPage.map((r) => r.x1!));
  const y1 = Math.max(...onPage.map((r) => r.y1!));
  return {
    coordinates: [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ],
    width: first.page_width!,
    height: first.page_height!,
    page_number: first.page!,
  };
}

/**
 * The placed regions of the uploaded documents among these (those of a user's drive source,
 * uploads/store.ts), by document id; the caller has already checked the user may read each.
 * Feed documents have none, so an answer over them costs no query.
 */
export async function regionsOf(
  db: Db,
  product: string,
  documents: Iterable<AskDocument>,
): Promise<Map<string, PassageRegion[]>> {
  const out = new Map<string, PassageRegion[]>();
  const drive = driveKeyOf(product, '');
  const documentIds = [...documents].filter((d) => d.source_key.startsWith(drive)).map((d) => d.id);
  if (documentIds.length === 0) return out;
  const rows = await db
    .selectFrom('document_regions')
    .select([
      'document_id',
      'span_start',
      'span_end',
      'page',
      'x0',
      'y0',
      'x1',
      'y1',
      'page_width',
      'page_height',
    ])
    .where('document_id', 'in', documentIds)
    .where('x0', 'is not', null)
    .orderBy('document_id')
    .orderBy('ordinal')
    .execute();
  for (const { document_id, ...region } of rows) {
    const list = out.get(document_id) ?? [];
    list.push(region);
    out.set(document_id, list);
  }
  return out;
}

export function citationOf(
  product: string,
  passage: RetrievedPassage,
  doc: AskDocument,
  spans: AnsweredSentence['cites'][number]['spans'],
  channelId: string | null,
  regions: readonly PassageRegion[] = [],
): Citation {
  // The box of the cited sentence (its spans in the passage), else of the whole passage.
  const at = spans.length
    ? {
        start: passage.start + Math.min(...spans.map((s) => s.start)),
        end: passage.start + Math.max(...spans.map((s) => s.end)),
      }
    : { start: passage.start, end: passage.end };
  const base = {
    id: String(passage.n),
    document_id: doc.id,
    public_access_key: null,
    access_key: doc.source_id,
    source: doc.source_key,
    category_tab: doc.category_tab,
    channel_id: channelId,
    mime_type: doc.mime_type,
    document_highlight: regions.length ? documentHighlightOf(regions, at.start, at.end) : null,
    url: doc.url,
    title_label: doc.title,
    source_label: doc.source_label,
    unix: doc.unix,
    content_only: doc.url === null,
    highlight_indexes: spans.map((s) => ({ start: s.start, end: s.end })),
    context: passage.text,
    passage: { start: passage.start, end: passage.end },
  };
  return { ...base, [documentLinkKey(product)]: citationPreviewHref(base) };
}

/** The answer's sentences with their cites made Citations; a cite of no passage is dropped. */
export function citedSentences(
  product: string,
  sentences: readonly AnsweredSentence[],
  passages: readonly RetrievedPassage[],
  documents: ReadonlyMap<string, AskDocument>,
  channelId: string | null,
  regions: ReadonlyMap<string, readonly PassageRegion[]> = new Map(),
): AnswerSentence[] {
  const byN = new Map(passages.map((p) => [p.n, p]));
  return sentences.map((s) => ({
    sentence: s.sentence,
    citations: s.cites.flatMap((cite) => {
      const passage = byN.get(cite.n);
      const doc = passage && documents.get(passage.document_id);
      return passage && doc
        ? [citationOf(product, passage, doc, cite.spans, channelId, regions.get(doc.id))]
        : [];
    }),
  }));
}

type Spans = AskSearchResult['highlight_indexes'];
const UNESCAPED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * The spans the snippets mark, in text order: each snippet (escaped text, runs of white space
 * as one space, `<em>` around matches, "…" at a cut end) is found again in the text, from
 * where the last one ended, at a place where each of its `<em>`s is one of `spans`.
 */
function snippetSpans(text: string, snippets: readonly string[], spans: Spans): Spans {
  const isSpan = new Set(spans.map((s) => `${s.start}:${s.end}`));
  const out: Spans = [];
  let from = 0;
  for (const html of snippets) {
    const source = html
      .replace(/^…|…$/g, '')
      .trim()
      .split(/(<em>[\s\S]*?<\/em>)/)
      .filter(Boolean)
      .map((part) => {
        const em = /^<em>([\s\S]*)<\/em>$/.exec(part);
        const literal = (em ? em[1] : part)
          .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => UNESCAPED[e])
          .replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
          .replace(/ /g, '\\s+');
        return em ? `(${literal})` : literal;
      })
      .join('');
    if (!source) continue;
    const re = new RegExp(source, 'dg');
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const marks = m.indices!.slice(1) as [number, number][];
      if (marks.every(([start, end]) => isSpan.has(`${start}:${end}`))) {
        out.push(...marks.map(([start, end]) => ({ start, end })));
        from = m.index + m[0].length;
        break;
      }
      re.lastIndex = m.index + 1;
    }
  }
  return out;
}

/**
 * A document as a search-mode result, highlighted for the expression's words: up to 3
 * snippets and every match's span over the whole document (up to 200). With `limit` (an
 * answer's documents read), at most `limit.highlights` snippets and only the spans they mark,
 * at most `limit.spans`: the whole document's spans made one answer's DONE tens of KB.
 */
export function searchResultOf(
  doc: AskDocument,
  expr: SearchExpr | null,
  limit?: { highlights: number; spans: number },
): AskSearchResult {
  const terms = matchTerms(expr);
  const lit = highlightText(
    doc.plain_text,
    terms,
    terms.length ? splitPassages(doc.plain_text) : [],
  );
  if (limit) {
    lit.highlights = lit.highlights.slice(0, limit.highlights);
    lit.highlight_indexes = snippetSpans(
      doc.plain_text,
      lit.highlights,
      lit.highlight_indexes,
    ).slice(0, limit.spans);
  }
  return {
    document_id: doc.id,
    mime_type: doc.mime_type,
    title_label: doc.title,
    source_label: doc.source_label,
    source: doc.source_key,
    category_tab: doc.category_tab,
    access_key: doc.source_id,
    unix: doc.unix,
    url: doc.url,
    highlights: lit.highlights,
    highlight_indexes: lit.highlight_indexes,
    highlighted_coordinates: [],
  };
}
