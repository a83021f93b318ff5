// Issue 20: the assistant over a document that repeats itself (the viewer bench's 300-page PDF
// is one 6-page text 50 times over). Two faults: "NIKE" was read as a guessed ticker of Narmada
// Infrastructure (its initials "NI" and any letters after), so NIKE's own text was dropped as
// another company's and the answer was "I could not find this in your data."; and the best
// passage's 50 copies filled the candidates, so the answer read one text many times over and
// nothing else. Copies now count once (each passage's text hash, written when it is indexed:
// migration 0030; tests/server/assistant-repeated-copies.test.ts for copies across documents).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseQuestion } from '../../server/assistant/question';
import { writePdf, type PdfBlock } from '../../server/summaries/pdf-writer';
import { ask } from './assistant-fixture';
import { uploadProcessed } from './upload-processed';
import { createHarness, type Harness } from './harness';

/** NIKE, Inc.'s 10-K Item 1 opening (6 pages as a PDF). */
const TEXT = readFileSync(
  new URL('../fixtures/uploads/nike-10k-item1.txt', import.meta.url),
  'utf8',
).replace(/^>/, '');
const COPIES = 50;

/** The text as the bench writes it: each copy from a new page, headings in bold. */
const repeatedPdf = (copies: number) => {
  const paragraphs = TEXT.split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const blocks: PdfBlock[] = [];
  for (let c = 0; c < copies; c++) {
    paragraphs.forEach((p, i) =>
      blocks.push(
        /^[A-Z0-9 .,&-]+$/.test(p)
          ? { text: p, size: 13, bold: true, pageBreak: i === 0 }
          : { text: p, pageBreak: i === 0 },
      ),
    );
  }
  return Buffer.from(writePdf({ title: `NIKE Item 1 x${copies}`, blocks }));
};

describe('the assistant over a document repeating one text', () => {
  let h: Harness;
  let token: string;
  let deeplink: string;

  beforeAll(async () => {
    // The demo corpus is seeded: it lists Narmada Infrastructure Ltd (and no NIKE). The text is
    // uploaded to the user's drive as a 300-page PDF, as the bench's.
    h = await createHarness('sqlite');
    token = (await h.signUp('Ada Lovelace')).session.id_token;
    ({ doc: deeplink } = await uploadProcessed(
      h,
      token,
      'nike-item1-x50.pdf',
      repeatedPdf(COPIES),
    ));
  }, 120_000);
  afterAll(() => h.close());

  it('reads NIKE as a name, not as a ticker guessed from two initials', async () => {
    const analysis = await analyseQuestion(
      h.db,
      'What are the principal materials used in NIKE footwear products?',
    );
    expect(analysis.entities).toEqual([]);
    expect(analysis.unknown).toEqual(['NIKE']);
    const res = await ask(h, token, {
      prompt: 'What are the principal materials used in NIKE footwear products?',
      document_id: deeplink,
    });
    expect(res.done!.generated_answer!.answer).toContain(
      'The principal materials used in our footwear products are natural and synthetic rubber',
    );
  });

  it('reads each text of the document once, however often it repeats', async () => {
    const res = await ask(h, token, {
      prompt: 'What are the principal materials used in NIKE footwear and apparel products?',
      document_id: deeplink,
    });
    const sources = res.events.find((e) => e.status === 'SOURCES');
    if (sources?.status !== 'SOURCES') throw new Error('no SOURCES event');
    const texts = sources.data.citations.map((c) => c.context.replace(/\s+/g, ' '));
    // Twelve passages read (ASK_PASSAGES), each a text of its own, none a copy of another.
    expect(texts).toHaveLength(12);
    expect(new Set(texts).size).toBe(12);
    // The passage stating the footwear materials is read once, not 50 times.
    expect(
      texts.filter((t) => t.includes('The principal materials used in our footwear products')),
    ).toHaveLength(1);
  });
});
