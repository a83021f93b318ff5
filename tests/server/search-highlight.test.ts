import { describe, expect, it } from 'vitest';
import { parseKeywordQuery } from '../../contract/keyword-query';
import { highlightText, matchTerms } from '../../server/search/highlight';
import { editDistance } from '../../server/search/spell';

const highlight = (query: string, text: string, passages: Array<[number, number]> = []) =>
  highlightText(
    text,
    matchTerms(parseKeywordQuery(query).expr),
    passages.map(([start, end]) => ({ start, end })),
  );

describe('search highlights', () => {
  it('escapes everything but the <em> marks', () => {
    const text = 'Q3 <b>profit</b> & "rates" rise; it\'s up';
    expect(highlight('profit', text)).toEqual({
      highlights: [
        'Q3 &lt;b&gt;<em>profit</em>&lt;/b&gt; &amp; &quot;rates&quot; rise; it&#39;s up',
      ],
      highlight_indexes: [{ start: 6, end: 12 }],
      passage: null,
    });
    const script = highlight('alert', '<script>alert(1)</script>');
    expect(script.highlights).toEqual(['&lt;script&gt;<em>alert</em>(1)&lt;/script&gt;']);
  });

  it('marks a phrase as one span and not its words alone', () => {
    const text = 'RBI holds the repo rate at 6.50%. The repo market and the rate path.';
    const h = highlight('"repo rate"', text);
    expect(h.highlights).toEqual([
      'RBI holds the <em>repo rate</em> at 6.50%. The repo market and the rate path.',
    ]);
    expect(h.highlight_indexes).toEqual([{ start: 14, end: 23 }]);
  });

  it('matches any case, folded accents and every word of the same stem', () => {
    const text = 'Café Filings: the COMPANIES filing list.';
    expect(highlight('cafe filing company', text)).toMatchObject({
      highlights: ['<em>Café</em> <em>Filings</em>: the <em>COMPANIES</em> <em>filing</em> list.'],
      highlight_indexes: [
        { start: 0, end: 4 },
        { start: 5, end: 12 },
        { start: 18, end: 27 },
        { start: 28, end: 34 },
      ],
    });
  });

  it('marks "employed" for the query "employ": the word by its stem', () => {
    const text = 'Staff employed: 120. It employs many; employees were hired.';
    const h = highlight('employ', text);
    expect(h.highlights).toEqual([
      'Staff <em>employed</em>: 120. It <em>employs</em> many; employees were hired.',
    ]);
    // Porter gives "employees" a stem of its own ("employe", not "emploi").
    expect(h.highlight_indexes).toEqual([
      { start: 6, end: 14 },
      { start: 24, end: 31 },
    ]);
    expect(highlight('persons', 'One person, two persons.').highlight_indexes).toEqual([
      { start: 4, end: 10 },
      { start: 16, end: 23 },
    ]);
  });

  it('matches every word of a phrase by its stem, in a row, as the engines do', () => {
    const text = 'Annual reports and the annual report; the annuals report.';
    expect(highlight('"annual report"', text).highlight_indexes).toEqual([
      { start: 0, end: 14 },
      { start: 23, end: 36 },
      { start: 42, end: 56 },
    ]);
    expect(highlight('"reported annually"', text).highlight_indexes).toEqual([]);
    expect(highlight('cafés', 'Cafe society and a café.').highlight_indexes).toEqual([
      { start: 0, end: 4 },
      { start: 19, end: 23 },
    ]);
  });

  it('never marks a word the query excludes', () => {
    const h = highlight('rate -repo', 'The repo rate was held.');
    expect(h.highlights).toEqual(['The repo <em>rate</em> was held.']);
    expect(h.highlight_indexes).toEqual([{ start: 9, end: 13 }]);
  });

  it('cuts snippets of about 200 characters at word boundaries', () => {
    const text = `${'alpha '.repeat(100)}needle ${'beta '.repeat(100)}`;
    const h = highlight('needle', text);
    expect(h.highlights).toEqual([
      `…${'alpha '.repeat(10)}<em>needle</em> ${'beta '.repeat(26)}beta…`,
    ]);
    expect(h.highlight_indexes).toEqual([{ start: 600, end: 606 }]);
  });

  it('gives at most 3 snippets, in text order, preferring one with more of the query', () => {
    const gap = 'filler '.repeat(60);
    const text = `${gap}rate one ${gap}rate two ${gap}rate three ${gap}repo and rate ${gap}`;
    const h = highlight('repo rate', text);
    expect(h.highlights).toHaveLength(3);
    expect(h.highlights.map((s) => s.match(/<em>\w+<\/em> \w+/g))).toEqual([
      ['<em>rate</em> one'],
      ['<em>rate</em> two'],
      ['<em>repo</em> and', '<em>rate</em> filler'],
    ]);
    expect(h.highlight_indexes).toHaveLength(5);
  });

  it('returns at most 200 match spans', () => {
    const h = highlight('x', 'x '.repeat(300));
    expect(h.highlight_indexes).toHaveLength(200);
    expect(h.highlight_indexes.at(-1)).toEqual({ start: 398, end: 399 });
  });

  it('picks the passage holding most of the query', () => {
    const text = `${'a'.repeat(49)} ${'rate '.repeat(14)}${'repo rate '.repeat(8)}`;
    expect(
      highlight('repo rate', text, [
        [0, 50],
        [50, 120],
        [120, 200],
      ]).passage,
    ).toEqual({ start: 120, end: 200 });
    // A document matched by its title alone: its first passage.
    expect(highlight('zebra', text, [[0, 50]]).passage).toEqual({ start: 0, end: 50 });
  });

  it('marks nothing for an empty query or one of negations only', () => {
    const none = { highlights: [], highlight_indexes: [], passage: null };
    expect(highlight('', 'The repo rate.', [[0, 14]])).toEqual(none);
    expect(highlight('-repo', 'The repo rate.', [[0, 14]])).toEqual(none);
  });
});

describe('spelling distance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one each', () => {
    expect(editDistance('inflation', 'inflaton')).toBe(1);
    expect(editDistance('form', 'from')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    // Past the bound it stops counting.
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
  });
});
