import {
  citationPreviewHref,
  documentLinkKey,
  type AnswerSentence,
  type AskSearchResult,
  type Citation,
} from '../../contract/assistant';
import type { SearchExpr } from '../search/engine';
import { highlightText, matchTerms } from '../search/highlight';
import { splitPassages } from '../search/passages';
import type { AnsweredSentence, RetrievedPassage } from './answerer';
import type { AskDocument } from './retrieve';

/**
 * What an answer's DONE carries besides its text: each cited passage as a full Citation (001
 * §3), and each document read as a search result with highlights. Access goes through the
 * document's source (access_key = its source id, as on result cards); sharing does not exist
 * yet (public_access_key null); no document has page positions until uploads arrive
 * (document_highlight null, highlighted_coordinates empty).
 */

export function citationOf(
  product: string,
  passage: RetrievedPassage,
  doc: AskDocument,
  spans: AnsweredSentence['cites'][number]['spans'],
  channelId: string | null,
): Citation {
  const base = {
    id: String(passage.n),
    document_id: doc.id,
    public_access_key: null,
    access_key: doc.source_id,
    source: doc.source_key,
    category_tab: doc.category_tab,
    channel_id: channelId,
    mime_type: doc.mime_type,
    document_highlight: null,
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
): AnswerSentence[] {
  const byN = new Map(passages.map((p) => [p.n, p]));
  return sentences.map((s) => ({
    sentence: s.sentence,
    citations: s.cites.flatMap((cite) => {
      const passage = byN.get(cite.n);
      const doc = passage && documents.get(passage.document_id);
      return passage && doc ? [citationOf(product, passage, doc, cite.spans, channelId)] : [];
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
