// Issue 20: a question about a row of an attached spreadsheet. Extraction writes each row of a
// sheet as a table unit, its header on the line before ("Segment | Fiscal 2023 | Fiscal 2022\n
// Greater China | 7248 | 7547"); the assistant read the two lines as two sentences, neither a
// table row (the " | " between cells hid the figures from the row rule), and the bare figures
// "7248" as no amount (no $, no "million"), so it answered "I could not find this in your data.".
// The header and its row are now one unit, a row, whose cells state amounts bare.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerUnits } from '../../server/assistant/sentences';
import { ask, NOT_FOUND } from './assistant-fixture';
import { uploadProcessed } from './upload-processed';
import { createHarness, type Harness } from './harness';

const SHEET = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'uploads', 'nike-segments.xlsx'),
);

describe('a question about a row of an attached XLSX', () => {
  let h: Harness;
  let token: string;
  let feed: string;
  let doc: string;

  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    token = (await h.signUp('Ada Lovelace')).session.id_token;
    ({ feed, doc } = await uploadProcessed(h, token, 'nike-segments.xlsx', SHEET, 'askneedl'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reads a header and the row after it as one table row', () => {
    const text =
      'Segment | Fiscal 2023 | Fiscal 2022\n\n' +
      'Segment | Fiscal 2023 | Fiscal 2022\nNorth America | 21608 | 18353\n\n' +
      'Segment | Fiscal 2023 | Fiscal 2022\nGreater China | 7248 | 7547';
    expect(answerUnits(text).map((u) => [text.slice(u.start, u.end), u.row])).toEqual([
      ['Segment | Fiscal 2023 | Fiscal 2022', true],
      ['Segment | Fiscal 2023 | Fiscal 2022\nNorth America | 21608 | 18353', true],
      ['Segment | Fiscal 2023 | Fiscal 2022\nGreater China | 7248 | 7547', true],
    ]);
    // Rows of figures one after another are rows each: a row is no header of the next.
    const rows = 'Fiscal year | Share\n2023 | 57%\n2022 | 60%';
    expect(answerUnits(rows).map((u) => [rows.slice(u.start, u.end), u.row])).toEqual([
      ['Fiscal year | Share\n2023 | 57%', true],
      ['2022 | 60%', true],
    ]);
  });

  it('answers with the row, its header and the sheet cited', async () => {
    const res = await ask(h, token, {
      prompt: 'What were Greater China revenues in fiscal 2023?',
      attachments_feed_id: feed,
    });
    expect(res.status).toBe(200);
    const answer = res.done!.generated_answer!;
    expect(answer.answer).not.toBe(NOT_FOUND);
    expect(answer.answer).toBe(
      'Segment \\| Fiscal 2023 \\| Fiscal 2022 Greater China \\| 7248 \\| 7547 [1]',
    );
    const cited = answer.sentences.flatMap((s) => s.citations);
    expect(cited.map((c) => c.document_id)).toEqual([doc]);
  });

  it('answers another row from its own line, not a neighbour’s', async () => {
    const res = await ask(h, token, {
      prompt: 'What were North America revenues in fiscal 2022?',
      attachments_feed_id: feed,
    });
    expect(res.done!.generated_answer!.answer).toBe(
      'Segment \\| Fiscal 2023 \\| Fiscal 2022 North America \\| 21608 \\| 18353 [1]',
    );
  });
});
