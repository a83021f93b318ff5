import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGES, type Harness } from './harness';
import { search, titlesOf, useSearchFixture } from './search-api-fixture';

/** Spelling correction from the index's own vocabulary (issue 7 §2). */
describe.each(STORAGES)('search spelling on %s', (storage) => {
  const fixture = useSearchFixture(storage);
  let h: Harness;
  let token: string;
  beforeAll(() => {
    h = fixture.h();
    token = fixture.token();
  });

  it('corrects a misspelt word to the word the index holds, and searches that', async () => {
    const res = await search(h, token, { q: 'inflaton', spell_correct: true, sort: 'latest' });
    expect(res.status).toBe(200);
    expect(res.body.query_params).toMatchObject({
      q: 'inflaton',
      corrected_q: 'inflation',
      searched_q: 'inflation',
    });
    expect(res.body.count).toBe(4);
    expect(titlesOf(res)).toEqual([
      'RBI holds repo rate at 6.50%',
      'Fed leaves rates unchanged',
      'Rate cycle outlook',
      'India retail inflation eases to 4.3%',
    ]);
    expect(res.body.results[0].highlights).toEqual([
      'The Monetary Policy Committee voted to hold the repo rate. <em>Inflation</em> remains near target.',
    ]);
  });

  it('keeps operators, quotes and capitals, correcting only the misspelt words', async () => {
    const res = await search(h, token, {
      q: 'Inflaton AND "repo rat"',
      spell_correct: true,
      sort: 'latest',
    });
    expect(res.body.query_params).toMatchObject({
      corrected_q: 'Inflation AND "repo rate"',
      searched_q: 'Inflation AND "repo rate"',
    });
    expect(titlesOf(res)).toEqual(['RBI holds repo rate at 6.50%', 'Rate cycle outlook']);
    // A long word may be two edits away.
    const two = await search(h, token, { q: 'semicondutcr', spell_correct: true });
    expect(two.body.query_params.corrected_q).toBe('semiconductor');
    expect(titlesOf(two)).toEqual(['10-K - Northwind Semiconductor Inc (0001532047) (Filer)']);
  });

  it('corrects nothing without spell_correct', async () => {
    const res = await search(h, token, { q: 'inflaton' });
    expect(res.body.query_params).toMatchObject({
      q: 'inflaton',
      corrected_q: null,
      searched_q: 'inflaton',
    });
    expect(res.body).toMatchObject({ count: 0, results: [] });
  });

  it('leaves a word the index holds as it is', async () => {
    for (const q of ['crude', 'Crude oil', 'rates', '"repo rate"']) {
      const res = await search(h, token, { q, spell_correct: true });
      expect(res.body.query_params.corrected_q, q).toBeNull();
      expect(res.body.query_params.searched_q, q).toBe(q);
      expect(res.body.count, q).toBeGreaterThan(0);
    }
    // A word no document holds and with no near neighbour stays too.
    const odd = await search(h, token, { q: 'xylophone', spell_correct: true });
    expect(odd.body.query_params.corrected_q).toBeNull();
    expect(odd.body.count).toBe(0);
  });
});
