import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKeywordQuery } from '../../contract/keyword-query';
import type { PassageQuery } from '../../server/search/engine';
import { engineFor } from '../../server/search/engines';
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
 * What the index holds besides whole documents, on every storage: passages with exact spans,
 * facets, the vocabulary (termDocs, similarTerms), and documents leaving the index when they
 * are deleted.
 */
const SOLAR =
  'Solar capacity in India reached a record this year as developers commissioned new parks ' +
  'across Rajasthan and Gujarat.';
const P1 = `${SOLAR} ${SOLAR} ${SOLAR}`;
const P2 = 'Wind lagged behind.';
const BATTERY =
  'Battery storage tenders doubled, and grid operators asked for more flexible capacity to ' +
  'balance evening peaks.';
const P3 = `${BATTERY} ${BATTERY} ${BATTERY}`;
const REPORT = `${P1}\n\n${P2}\n\n${P3}`;

describe.each(STORAGES)('search index on %s', (storage) => {
  let h: Harness;
  let f: Fixture;
  const ids = new Map<string, string>();
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    f = await writeEngineFixture(h);
    const energy = (key: string, title: string, hours: number) =>
      news(key, title, '', hours, { html: null, text: REPORT });
    await addDocs(h, SOURCES.news, [energy('e1', 'Energy outlook', 9)]);
    await addDocs(h, SOURCES.bob, [energy('e2', 'Bob energy notes', 9)]);
    for (const r of await h.db.selectFrom('documents').select(['id', 'title']).execute()) {
      ids.set(r.title, r.id);
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const engine = () => engineFor(h.db);
  const passagesOf = async (q: string, more: Partial<PassageQuery> = {}) => {
    const hits = await engine().passages(h.db, {
      expr: parseKeywordQuery(q).expr!,
      scope: scopeOf(f.ada, { publicCorpus: true, sourceIds: [SOURCES.bob] }),
      documentIds: null,
      limit: 5,
      ...more,
    });
    return hits.map((p) => ({ document_id: p.document_id, text: REPORT.slice(p.start, p.end) }));
  };

  it('cuts a document into passages at paragraphs, with exact spans of its text', async () => {
    const outlook = ids.get('Energy outlook')!;
    // The short middle paragraph joins the one after it.
    expect(await passagesOf('battery')).toEqual([{ document_id: outlook, text: `${P2}\n\n${P3}` }]);
    expect(await passagesOf('solar')).toEqual([{ document_id: outlook, text: P1 }]);
    expect(await passagesOf('solar', { documentIds: [outlook] })).toEqual([
      { document_id: outlook, text: P1 },
    ]);
    expect(await passagesOf('solar', { documentIds: [f.idOf('Tesla filing delayed')] })).toEqual(
      [],
    );
    // Bob's copy is out of Ada's reach, whatever the scope names.
    expect(await passagesOf('solar', { documentIds: [ids.get('Bob energy notes')!] })).toEqual([]);
    expect(await passagesOf('hydrogen')).toEqual([]);
  });

  it('counts facets over the matches', async () => {
    const base = {
      scope: scopeOf(f.ada, { publicCorpus: true }),
      tab: null,
      from: null,
      to: null,
      companies: null,
      tags: null,
      market: null,
    };
    const expr = parseKeywordQuery('revenue').expr;
    expect(await engine().facet(h.db, { ...base, expr }, 'companies', 10)).toEqual([
      { key: 'Deccan Bank Ltd', count: 1 },
      { key: 'Ford Motor', count: 1 },
      { key: 'Prairie Mutual Insurance Co', count: 1 },
    ]);
    // Tags are the user's own (issue 21), not document categories: Ada has tagged nothing.
    // Counting a user's tags is tested through the API in search-api.test.ts.
    expect(await engine().facet(h.db, { ...base, expr: null }, 'tags', 3)).toEqual([]);
    const us = { ...base, expr: null, market: 'us_capital_markets' as const };
    expect(await engine().facet(h.db, us, 'companies', 10)).toEqual([
      { key: 'Prairie Mutual Insurance Co', count: 1 },
    ]);
  });

  it('knows its vocabulary: public documents per word, and words spelt alike', async () => {
    const docs = await engine().termDocs(h.db, ['revenue', 'tesla', 'café', 'cafe', 'secret', 'x']);
    expect(Object.fromEntries(docs)).toEqual({
      revenue: 4,
      tesla: 1,
      café: 1,
      cafe: 1,
      // Only Bob's private memo holds it: private words are never counted nor suggested.
      secret: 0,
      x: 0,
    });
    expect(await engine().similarTerms(h.db, 'revenu', 3)).toEqual([
      { term: 'report', docs: 4 },
      { term: 'revenue', docs: 4 },
      { term: 'reported', docs: 2 },
    ]);
    const s = (await engine().similarTerms(h.db, 'secrt', 50)).map((t) => t.term);
    expect(s).not.toContain('secret');
    expect(await engine().similarTerms(h.db, '', 5)).toEqual([]);
  });

  it('takes documents out of the index when they are deleted', async () => {
    const pub = scopeOf(f.ada, { publicCorpus: true });
    const kaveri = f.idOf('Kaveri Infotech - Annual Report');
    const seq = (
      await h.db
        .selectFrom('documents')
        .select('seq')
        .where('id', '=', kaveri)
        .executeTakeFirstOrThrow()
    ).seq;
    await engine().unindex(h.db, [{ id: kaveri, seq: Number(seq) }]);
    expect(await titleSet(h, engineQuery('kaveri', pub))).toEqual([]);
    expect(Object.fromEntries(await engine().termDocs(h.db, ['kaveri', 'infotech']))).toEqual({
      kaveri: 0,
      infotech: 0,
    });
    // A source deleted takes its documents, their passages and their index rows with it.
    const prairie = f.idOf('10-K - Prairie Mutual');
    await h.db.deleteFrom('sources').where('id', '=', SOURCES.us).execute();
    expect(await titleSet(h, engineQuery('prairie', pub))).toEqual([]);
    expect(await titleSet(h, engineQuery('revenue', pub))).toEqual([
      'Companies report earnings',
      'Deccan Bank - Financial Results',
      'Ford files annual reports',
    ]);
    const left = await h.db
      .selectFrom('document_passages')
      .select('id')
      .where('document_id', '=', prairie)
      .execute();
    expect(left).toEqual([]);
    if (storage === 'sqlite') {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM search_docs
        WHERE search_docs MATCH '"prairie"'`.execute(h.db);
      expect(rows[0].n).toBe(0);
      const passages = await sql<{ n: number }>`SELECT count(*) AS n FROM search_passages
        WHERE search_passages MATCH '"prairie"'`.execute(h.db);
      expect(passages.rows[0].n).toBe(0);
    }
  });
});
