import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { AskAnswer, Citation } from '../../contract/assistant';
import { internCitations } from '../../worker/domains/assistant/assistant-store';

/**
 * DONE's answer as the worker keeps it and sends it to tabs: a citation repeated with equal
 * fields in many sentences is one object, so structured clone (postMessage, IndexedDB) carries
 * its passage once; nothing is lost.
 */

const PASSAGE = 'Net revenue rose 10% to $51.2 billion. Gross margin fell to 43.5%. '.repeat(15);

const cite = (id: string, start: number): Citation => ({
  id,
  document_id: `d${id}`,
  public_access_key: null,
  access_key: 'src',
  source: 'sec_filings',
  category_tab: 'filings',
  channel_id: null,
  mime_type: 'text/html',
  document_highlight: null,
  url: null,
  title_label: `Filing ${id}`,
  source_label: 'SEC',
  unix: 1_700_000_000,
  content_only: true,
  highlight_indexes: [{ start, end: start + 38 }],
  context: PASSAGE,
  passage: { start: 0, end: PASSAGE.length },
});

function answerOf(sentences: AskAnswer['generated_answer']['sentences']): AskAnswer {
  return {
    answer_type: 'ANSWER',
    retrieved_results: [],
    generated_answer: { answer: sentences.map((s) => s.sentence).join(' '), sentences },
    followup_questions: [],
    message_id: 'm1',
    answer_quality: 'HIGH',
    session_id: 's1',
  };
}

describe('internCitations', () => {
  it('makes equal citations one object and keeps the answer as it was', () => {
    const sentences = Array.from({ length: 300 }, (_, i) => ({
      sentence: `Revenue rose ${i} [1].`,
      citations: [cite('1', 0), cite('2', i % 2 === 0 ? 0 : 39)],
    }));
    const data = answerOf(sentences);
    const interned = internCitations(data);

    expect(interned).toEqual(data);
    const all = interned.generated_answer.sentences.flatMap((s) => s.citations);
    // [1] always quotes the same span: one object. [2] quotes two spans: two objects.
    expect(new Set(all.filter((c) => c.id === '1')).size).toBe(1);
    expect(new Set(all.filter((c) => c.id === '2')).size).toBe(2);
    // What a tab receives: the passage three times, not 600.
    expect(serialize(interned).length).toBeLessThan(serialize(data).length / 20);
  });

  it('keeps citations that differ in any field apart', () => {
    const data = answerOf([
      { sentence: 'A [1].', citations: [cite('1', 0)] },
      { sentence: 'B [1].', citations: [{ ...cite('1', 0), title_label: 'Another title' }] },
    ]);
    const [a, b] = internCitations(data).generated_answer.sentences;
    expect(a.citations[0]).not.toBe(b.citations[0]);
    expect(b.citations[0].title_label).toBe('Another title');
  });
});
