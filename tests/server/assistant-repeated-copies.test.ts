// Issue 20: copies of one text crowd the assistant's retrieval. A story syndicated three times
// in a followed source, and kept by the user as an uploaded file, was read four times over (its
// SOURCES held the same passage from four documents, leaving less room for other evidence).
// Copies now count once (a hash of each passage's text written when it is indexed, migration
// 0030): the user's own copy stands for the text, and the other story is still read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskSources } from '../../contract/assistant';
import { ask } from './assistant-fixture';
import { uploadProcessed } from './upload-processed';
import { addDocs, follow, news } from './documents-helpers';
import { createHarness, type Harness } from './harness';

const STORY =
  'The fleet of container ships grew to 42 vessels in 2024 after the delivery of six new ships ' +
  'built in Korea, the shipping line said on Monday.';
const OTHER =
  'The container ships of the shipping line carried 1.2 million containers in 2024, and the ' +
  'fleet also counts 12 refrigerated ships.';
const QUESTION = 'how many container ships are in the fleet of the shipping line?';

const sourcesOf = (res: Awaited<ReturnType<typeof ask>>): AskSources => {
  const event = res.events.find((e) => e.status === 'SOURCES');
  if (event?.status !== 'SOURCES') throw new Error('no SOURCES event');
  return event.data;
};

describe('copies of one text in retrieval', () => {
  let h: Harness;
  let token: string;
  let upload: string;
  let other: string;

  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    token = (await h.signUp('Ada Lovelace')).session.id_token;
    await follow(h, token, 'demo_tech_ledger');
    await addDocs(h, 'demo_tech_ledger', [
      news('wire-1', 'Shipping line grows its fleet', STORY, 5),
      news('wire-2', 'Fleet grows to 42 ships', STORY, 4),
      news('wire-3', 'Korean yards deliver six ships', STORY, 3),
      news('other', 'A year of container shipping', OTHER, 6),
    ]);
    other = (
      await h.db
        .selectFrom('documents')
        .select('id')
        .where('title', '=', 'A year of container shipping')
        .executeTakeFirstOrThrow()
    ).id;
    ({ doc: upload } = await uploadProcessed(h, token, 'fleet-note.txt', Buffer.from(STORY)));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reads a text once, from the user’s own copy, and the other story beside it', async () => {
    const res = await ask(h, token, { prompt: QUESTION });
    expect(res.status).toBe(200);
    const { citations } = sourcesOf(res);
    const read = citations.map((c) => [c.document_id, c.context]);
    expect(read).toHaveLength(2);
    expect(read).toContainEqual([upload, STORY]);
    expect(read).toContainEqual([other, OTHER]);
    expect(res.done!.generated_answer!.answer).toContain('grew to 42 vessels in 2024');
  });
});
