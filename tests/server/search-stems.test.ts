import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { parseKeywordQuery } from '../../contract/keyword-query';
import { engineFor } from '../../server/search/engines';
import { searchMigrations } from '../../server/search/migrations';
import { countsOf } from '../../server/search/vocabulary';
import { addDocs, news } from './documents-helpers';
import {
  engineQuery,
  scopeOf,
  SOURCES,
  titleSet,
  writeEngineFixture,
  type Fixture,
} from './search-engine-fixture';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * Words match by stem on every engine (contract/words.ts, issue 16): the index holds stems, a
 * query word matches every word of its stem, a phrase its stems in a row; the vocabulary
 * counts documents per stem for the planner and retrieval, and migration 0015 rebuilds an
 * index without counting anything twice.
 */
describe.each(STORAGES)('matching by stem on %s', (storage) => {
  let h: Harness;
  let f: Fixture;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    f = await writeEngineFixture(h);
    await addDocs(h, SOURCES.news, [
      news('s1', 'Mill staffing', 'The mill employed 400 workers in 2023.', 0.1),
      news('s2', 'Board persons', 'Two persons joined the board.', 0.2),
      news('s3', 'One resignation', 'A person of note resigned.', 0.3),
      news('s4', 'Union vote', 'Employees voted for the union.', 0.4),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  const engine = () => engineFor(h.db);
  const docOf = (title: string) =>
    h.db
      .selectFrom('documents')
      .select(['id', 'seq'])
      .where('title', '=', title)
      .executeTakeFirstOrThrow();
  const find = (q: string) => titleSet(h, engineQuery(q, scopeOf(f.ada, { publicCorpus: true })));

  it('finds a document saying "employed" for "employ", and "person" for "persons"', async () => {
    expect(await find('employ')).toEqual(['Mill staffing']);
    expect(await find('Employing')).toEqual(['Mill staffing']);
    // Porter's stem of "employees" is "employe", not "emploi": another word.
    expect(await find('employees')).toEqual(['Union vote']);
    expect(await find('persons')).toEqual(['Board persons', 'One resignation']);
    expect(await find('person')).toEqual(['Board persons', 'One resignation']);
    // A phrase: its stems in a row, in order.
    expect(await find('"person joined"')).toEqual(['Board persons']);
    expect(await find('"joined person"')).toEqual([]);
    expect(await find('"employs 400 worker"')).toEqual(['Mill staffing']);
    expect(await find('2023')).toEqual(['Mill staffing']);
  });

  it("finds passages by stem (the assistant's retrieval)", async () => {
    const hits = await engine().passages(h.db, {
      expr: parseKeywordQuery('employ').expr!,
      scope: scopeOf(f.ada, { publicCorpus: true }),
      documentIds: null,
      limit: 5,
    });
    expect(hits.map((p) => p.document_id)).toEqual([(await docOf('Mill staffing')).id]);
  });

  it('counts documents per stem, under keys spelling never reads', async () => {
    expect(
      Object.fromEntries(await engine().termDocs(h.db, ['employ', 'employed', 'persons', 'xyz'])),
    ).toEqual({ employ: 1, employed: 1, persons: 2, xyz: 0 });
    expect(Object.fromEntries(await countsOf(h.db, ['~emploi', '~person', '~employe']))).toEqual({
      '~emploi': 1,
      '~person': 2,
      '~employe': 1,
    });
    const similar = (await engine().similarTerms(h.db, 'persn', 50)).map((t) => t.term);
    expect(similar).toContain('person');
    expect(similar).toContain('persons');
    for (const w of ['e', 'p', 'z', '2']) {
      for (const t of await engine().similarTerms(h.db, w, 1000)) expect(t.term).not.toMatch(/^~/);
    }
  });

  it('rebuilds the whole index from stems once (migration 0015), counting nothing twice', async () => {
    const counts = async () =>
      Object.fromEntries(await countsOf(h.db, ['~emploi', '~person', 'persons', '', ':pub']));
    const before = await counts();
    const rows = async (table: 'search_meta' | 'document_passages' | 'search_tags') =>
      Number(
        (
          await h.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tables = async () => [
      await rows('search_meta'),
      await rows('document_passages'),
      await rows('search_tags'),
    ];
    const sizes = await tables();
    await searchMigrations['0015-search-reindex'].up(h.db as unknown as Kysely<unknown>);
    expect(await counts()).toEqual(before);
    expect(before).toMatchObject({ '~emploi': 1, '~person': 2, persons: 1 });
    expect(await tables()).toEqual(sizes);
    expect(await find('employ')).toEqual(['Mill staffing']);
    expect(await find('persons')).toEqual(['Board persons', 'One resignation']);
  });

  it('takes stems out of the counts when a document leaves the index', async () => {
    const mill = await docOf('Mill staffing');
    await engine().unindex(h.db, [{ id: mill.id, seq: Number(mill.seq) }]);
    expect(Object.fromEntries(await engine().termDocs(h.db, ['employed']))).toEqual({
      employed: 0,
    });
    expect(await find('employ')).toEqual([]);
  });
});
