// Issue 20: each search passage carries a hash of its text (document_passages.text_hash), so
// retrieval tells copies of one text apart without reading documents (the assistant's
// retrieval keeps one per text). Written when a passage is indexed; migration 0030 fills the
// passages indexed before it. On every backend (the backfill's UPDATE differs by dialect).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMigrations } from '../../server/search/migrations';
import { addDocs, news } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

const STORY = 'The harbour cranes were replaced in March, the port authority said.';
const OTHER = 'The port authority said cargo volumes rose by 4% in the first quarter.';

describe.each(STORAGES)('passage text hashes on %s', (storage) => {
  let h: Harness;
  /** The passages of the three documents: their document's title and hash, by id. */
  const hashes = async () =>
    (
      await h.db
        .selectFrom('document_passages as p')
        .innerJoin('documents as d', 'd.id', 'p.document_id')
        .select(['d.title', 'p.text_hash'])
        .where('d.title', 'in', ['Copy one', 'Copy two', 'Another story'])
        .orderBy('d.title')
        .execute()
    ).map((r) => [r.title, r.text_hash]);

  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await addDocs(h, 'demo_tech_ledger', [
      news('copy-1', 'Copy one', STORY, 3),
      // The same text with its whitespace laid out otherwise is the same text.
      news('copy-2', 'Copy two', '', 2, {
        html: null,
        text: STORY.replace('were replaced', 'were\n  replaced'),
      }),
      news('other', 'Another story', OTHER, 1),
    ]);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('writes one hash per text when passages are indexed', async () => {
    const rows = await hashes();
    expect(rows.map(([title]) => title)).toEqual(['Another story', 'Copy one', 'Copy two']);
    const [other, one, two] = rows.map(([, hash]) => hash);
    expect(one).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(two).toBe(one);
    expect(other).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(other).not.toBe(one);
  });

  it('fills the hashes of passages indexed before migration 0030', async () => {
    const written = await hashes();
    await h.db.updateTable('document_passages').set({ text_hash: null }).execute();
    expect((await hashes()).map(([, hash]) => hash)).toEqual([null, null, null]);
    await searchMigrations['0030-passage-text-hash'].up(h.db);
    expect(await hashes()).toEqual(written);
  });
});
