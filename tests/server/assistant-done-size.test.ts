import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskAnswer } from '../../contract/assistant';
import { askPath, dataLines, filingsReader, writeFilings } from './assistant-fixture';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/**
 * DONE's weight. An answer's retrieved_results list the documents its passages were read
 * from; each carries what a reader needs (at most 3 snippets and the at most 20 spans they
 * mark), not every match's span over the whole document (up to 200) as search mode's results.
 */

const QUESTIONS = [
  "What are Nike's risks from foreign currency exchange rates?",
  'What supply chain risks does Western Digital describe?',
  'How do cybersecurity incidents affect the company?',
];

const UNESCAPED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
/** The marked words of snippets, in order, as the text holds them (white space collapsed). */
const emsOf = (highlights: readonly string[]) =>
  highlights.flatMap((html) =>
    [...html.matchAll(/<em>([\s\S]*?)<\/em>/g)].map((m) =>
      m[1].replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => UNESCAPED[e]),
    ),
  );
const collapsed = (s: string) => s.replace(/\s+/g, ' ');

describe.each(STORAGE_INDEPENDENT)("DONE's retrieved results on %s", (storage) => {
  let h: Harness;
  let token: string;
  const texts = new Map<string, string>();
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFilings(h);
    ({ token } = await filingsReader(h));
    for (const d of await h.db.selectFrom('documents').select(['id', 'plain_text']).execute()) {
      texts.set(d.id, d.plain_text);
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  /** DONE's data, read from its line as sent. */
  const doneOf = async (prompt: string, mode?: 'search') => {
    const res = await h.app.request(askPath(mode ? { prompt, mode } : { prompt }), {
      headers: { token },
    });
    const line = dataLines(await res.text()).find((l) => l.startsWith('{"status":"DONE"'));
    expect(line).toBeDefined();
    return { done: (JSON.parse(line!) as { data: AskAnswer }).data };
  };

  it.each(QUESTIONS)(
    'an answer lists each document read with at most 3 snippets and their 20 spans: %s',
    async (prompt) => {
      const { done } = await doneOf(prompt);
      expect(done.answer_type).toBe('ANSWER');
      expect(done.retrieved_results.length).toBeGreaterThan(0);
      for (const result of done.retrieved_results) {
        expect(result.highlights.length).toBeGreaterThan(0);
        expect(result.highlights.length).toBeLessThanOrEqual(3);
        expect(result.highlight_indexes.length).toBeGreaterThan(0);
        expect(result.highlight_indexes.length).toBeLessThanOrEqual(20);
        // The spans are those of the snippets' marks, in order, over the document's text.
        const text = texts.get(result.document_id)!;
        const ems = emsOf(result.highlights);
        expect(result.highlight_indexes).toHaveLength(Math.min(ems.length, 20));
        result.highlight_indexes.forEach((span, i) => {
          expect(collapsed(text.slice(span.start, span.end))).toBe(ems[i]);
          if (i > 0) expect(span.start).toBeGreaterThanOrEqual(result.highlight_indexes[i - 1].end);
        });
      }
    },
  );

  it("keeps search mode's results whole: every match's span over the document", async () => {
    const answer = await doneOf(QUESTIONS[0]);
    const search = await doneOf(QUESTIONS[0], 'search');
    expect(search.done.answer_type).toBe('SEARCH');
    const [result] = search.done.retrieved_results;
    expect(result.highlights.length).toBeLessThanOrEqual(3);
    expect(result.highlight_indexes.length).toBeGreaterThan(20);
    expect(result.highlight_indexes.length).toBeGreaterThan(emsOf(result.highlights).length);
    // The same document, listed lighter by an answer.
    const read = answer.done.retrieved_results.find((r) => r.document_id === result.document_id);
    expect(read).toBeDefined();
    expect(JSON.stringify(read).length).toBeLessThan(JSON.stringify(result).length / 2);
  });
});
