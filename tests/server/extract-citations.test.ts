// Issue 20 item 4: a citation of an uploaded PDF's passage carries the box of the cited
// sentence on its page (001 §3 document_highlight); other passages carry none.
import { describe, expect, it } from 'vitest';
import {
  citedSentences,
  documentHighlightOf,
  type PassageRegion,
} from '../../server/assistant/citations';
import type { RetrievedPassage } from '../../server/assistant/answerer';
import type { AskDocument } from '../../server/assistant/retrieve';

// Two PDF paragraphs on page 2 and one on page 3 of a Letter page (612 x 792 points).
const region = (
  span_start: number,
  span_end: number,
  page: number,
  box: [number, number, number, number],
): PassageRegion => ({
  span_start,
  span_end,
  page,
  x0: box[0],
  y0: box[1],
  x1: box[2],
  y1: box[3],
  page_width: 612,
  page_height: 792,
});
const REGIONS = [
  region(0, 100, 2, [54, 334.24, 293.11, 489.54]),
  region(101, 180, 2, [54, 495.1, 293.11, 556.27]),
  region(181, 300, 3, [317, 72, 556, 140]),
];

describe('documentHighlightOf', () => {
  it('gives the 4 corners of the box holding the span, the page size and the page', () => {
    expect(documentHighlightOf(REGIONS, 120, 150)).toEqual({
      coordinates: [
        { x: 54, y: 495.1 },
        { x: 293.11, y: 495.1 },
        { x: 293.11, y: 556.27 },
        { x: 54, y: 556.27 },
      ],
      width: 612,
      height: 792,
      page_number: 2,
    });
  });

  it('joins the boxes of a span over two paragraphs of one page, keeping to the first page', () => {
    expect(documentHighlightOf(REGIONS, 50, 150)?.coordinates).toEqual([
      { x: 54, y: 334.24 },
      { x: 293.11, y: 334.24 },
      { x: 293.11, y: 556.27 },
      { x: 54, y: 556.27 },
    ]);
    expect(documentHighlightOf(REGIONS, 150, 250)?.page_number).toBe(2);
  });

  it('is null for text with no box (Word, text, a feed document)', () => {
    expect(documentHighlightOf([], 0, 10)).toBe(null);
    expect(
      documentHighlightOf([{ ...REGIONS[0]!, x0: null, y0: null, x1: null, y1: null }], 0, 10),
    ).toBe(null);
    expect(documentHighlightOf(REGIONS, 400, 420)).toBe(null);
  });
});

describe('citedSentences', () => {
  const doc: AskDocument = {
    id: 'doc-1',
    title: 'Trace-based JIT',
    url: null,
    unix: 1_700_000_000,
    source_id: 'src-1',
    source_key: 'needldrive_user-1',
    source_label: 'Needl Drive',
    category_tab: 'documents',
    mime_type: 'application/pdf',
    company_name: null,
    plain_text: 'x'.repeat(300),
  };
  const passage: RetrievedPassage = {
    n: 1,
    document_id: 'doc-1',
    title: doc.title,
    source_label: doc.source_label,
    unix: doc.unix,
    start: 181,
    end: 300,
    text: 'x'.repeat(119),
    score: 1,
    entity: null,
  };
  const sentence = {
    sentence: 'It is fast [1].',
    cites: [{ n: 1, spans: [{ start: 10, end: 40 }] }],
  };

  it('carries the cited sentence box when the document has regions, null otherwise', () => {
    const [withBox] = citedSentences(
      'needl',
      [sentence],
      [passage],
      new Map([[doc.id, doc]]),
      null,
      new Map([[doc.id, REGIONS]]),
    );
    expect(withBox!.citations[0]!.document_highlight).toEqual({
      coordinates: [
        { x: 317, y: 72 },
        { x: 556, y: 72 },
        { x: 556, y: 140 },
        { x: 317, y: 140 },
      ],
      width: 612,
      height: 792,
      page_number: 3,
    });
    const [without] = citedSentences(
      'needl',
      [sentence],
      [passage],
      new Map([[doc.id, doc]]),
      null,
    );
    expect(without!.citations[0]!.document_highlight).toBe(null);
  });
});
