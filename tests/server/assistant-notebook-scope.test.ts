import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from './assistant-fixture';
import { newUser } from './documents-helpers';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/** A notebook as the assistant's scope: its notes only; another user's notebook is refused. */
describe.each(STORAGE_INDEPENDENT)('asking within a notebook, on %s', (storage) => {
  let h: Harness;
  let ada: { token: string };
  let bob: { token: string };
  const paragraph = (text: string) => ({ type: 'paragraph', children: [{ text }] });
  const note = (notebook: string, id: string, name: string, text: string) =>
    h.call('PUT', `/note/create/${notebook}`, {
      token: ada.token,
      body: { id, name, document: [paragraph(text)] },
    });
  const QUESTION = 'How large are the zanzibarite reserves?';
  const cited = (res: Awaited<ReturnType<typeof ask>>) => [
    ...new Set(
      res.done!.generated_answer.sentences.flatMap((s) => s.citations.map((c) => c.title_label)),
    ),
  ];

  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    ada = await newUser(h);
    bob = await newUser(h, 'Bob Other');
    for (const [id, name] of [
      ['nb-harbour', 'Harbour'],
      ['nb-delta', 'Delta'],
      ['nb-empty', 'Empty'],
    ]) {
      const made = await h.call('PUT', '/notebook', { token: ada.token, body: { id, name } });
      expect(made.status).toBe(200);
    }
    await note(
      'nb-harbour',
      'n-harbour',
      'Harbour reserves',
      'The zanzibarite reserves of Harbour Mining are estimated at 40 million tonnes.',
    );
    await note(
      'nb-delta',
      'n-delta',
      'Delta reserves',
      'The zanzibarite reserves of Delta Minerals are estimated at 12 million tonnes.',
    );
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers from the chosen notebook's notes only", async () => {
    // Unscoped, the Harbour note answers; within Delta, only Delta's may.
    expect(cited(await ask(h, ada.token, { prompt: QUESTION }))).toEqual(['Harbour reserves']);

    const harbour = await ask(h, ada.token, { prompt: QUESTION, notebook_id: 'nb-harbour' });
    expect(harbour.status).toBe(200);
    expect(cited(harbour)).toEqual(['Harbour reserves']);
    expect(harbour.done!.generated_answer.sentences[0].sentence).toBe(
      'The zanzibarite reserves of Harbour Mining are estimated at 40 million tonnes.',
    );
    const delta = await ask(h, ada.token, { prompt: QUESTION, notebook_id: 'nb-delta' });
    expect(cited(delta)).toEqual(['Delta reserves']);
  });

  it("refuses another user's notebook, an unknown one and an empty one", async () => {
    const other = await ask(h, bob.token, { prompt: QUESTION, notebook_id: 'nb-harbour' });
    expect(other.status).toBe(404);
    expect(other.body?.message).toBe('no such notebook: nb-harbour');
    const unknown = await ask(h, ada.token, { prompt: QUESTION, notebook_id: 'nb-none' });
    expect(unknown.status).toBe(404);
    const empty = await ask(h, ada.token, { prompt: QUESTION, notebook_id: 'nb-empty' });
    expect(empty.status).toBe(400);
    expect(empty.body?.message).toBe('notebook_id: the notebook “Empty” holds no notes yet');
  });
});
