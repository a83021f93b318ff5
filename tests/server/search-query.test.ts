import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGES, type Harness } from './harness';
import { search, titlesOf, useSearchFixture } from './search-api-fixture';

/**
 * The query language over HTTP (issue 7 §4): any input answers 200 with results or an empty
 * list (or a 400 past 5000 characters), never a 500, and nothing reaches an engine as syntax.
 */
describe.each(STORAGES)('search query language on %s', (storage) => {
  const fixture = useSearchFixture(storage);
  let h: Harness;
  let token: string;
  beforeAll(() => {
    h = fixture.h();
    token = fixture.token();
  });

  const titles = async (q: string, extra: object = {}) => {
    const res = await search(h, token, { q, sort: 'latest', ...extra });
    expect(res.status, JSON.stringify(q).slice(0, 60)).toBe(200);
    return titlesOf(res);
  };

  it('reads words, phrases, AND, OR, NOT, +, -, | and parentheses', async () => {
    expect(await titles('repo rate')).toEqual([
      'RBI holds repo rate at 6.50%',
      'Rate cycle outlook',
    ]);
    expect(await titles('"rate cycle"')).toEqual(['Rate cycle outlook']);
    expect(await titles('repo AND NOT outlook')).toEqual(['RBI holds repo rate at 6.50%']);
    expect(await titles('repo -outlook')).toEqual(['RBI holds repo rate at 6.50%']);
    expect(await titles('+crude | dividend')).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      'Crude oil slips on supply worries',
    ]);
    expect(await titles('(crude OR dividend) AND board')).toEqual([
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
    ]);
    // Plurals and singulars match each other.
    expect(await titles('rate', { tab: 'rss_news' })).toEqual([
      'RBI holds repo rate at 6.50%',
      'Fed leaves rates unchanged',
    ]);
  });

  it('answers no results for operators or punctuation alone', async () => {
    for (const q of [
      'AND',
      'OR OR',
      '-',
      '+',
      '|',
      '()',
      '"',
      '"""',
      'NOT',
      '* ^ :',
      '((((',
      '))',
    ]) {
      const res = await search(h, token, { q, type: 'category', num_docs: 10 });
      expect(res.status, q).toBe(200);
      expect(res.body.results, q).toEqual([]);
      expect(res.body.count, q).toBe(0);
    }
  });

  it('reads a pure negation as every document without the word', async () => {
    const res = await search(h, token, { q: '-repo', num_docs: 0 });
    expect(res.body.count).toBe(7);
  });

  it('reads engine syntax as plain words', async () => {
    // An unclosed quote runs to the end.
    expect(await titles('"repo rate')).toEqual([
      'RBI holds repo rate at 6.50%',
      'Rate cycle outlook',
    ]);
    // NEAR( is the word "near": only the RBI story says "near".
    expect(await titles('NEAR(repo')).toEqual(['RBI holds repo rate at 6.50%']);
    expect(await titles('NEAR(repo, rate, 2)')).toEqual([]);
    // A column filter is the phrase "title repo", which no document holds.
    expect(await titles('title:repo')).toEqual([]);
    expect(await titles('repo*')).toEqual(['RBI holds repo rate at 6.50%', 'Rate cycle outlook']);
    expect(await titles('^crude')).toEqual(['Crude oil slips on supply worries']);
    // A quote opening a phrase that never closes: the phrase "or 1 1", held by no document.
    expect(await titles("' OR 1=1 --")).toEqual([]);
    expect(await titles("crude' OR 1=1 --")).toEqual(['Crude oil slips on supply worries']);
    expect(await titles('{crude}')).toEqual(['Crude oil slips on supply worries']);
    // Control characters separate nothing: the words either side form a phrase (NUL itself is
    // refused at the API's edge: api-edge.test.ts).
    expect(await titles('repo\u0002rate')).toEqual([
      'RBI holds repo rate at 6.50%',
      'Rate cycle outlook',
    ]);
    expect(await titles('\u0001\u001f\u007f')).toEqual([]);
    expect(await titles('crude \u0007')).toEqual(['Crude oil slips on supply worries']);
  });

  it('answers queries of 5000 characters, and refuses longer ones', async () => {
    const long = [
      'repo '.repeat(1000),
      'repo OR '.repeat(625),
      '('.repeat(5000),
      `${'"'.repeat(2500)}${'-'.repeat(2500)}`,
      `crude ${'x'.repeat(4994)}`,
      Array.from({ length: 1000 }, (_, i) => `w${i}`)
        .join(' ')
        .slice(0, 5000),
      'NOT '.repeat(1250),
    ];
    for (const q of long) {
      expect(q.length).toBeLessThanOrEqual(5000);
      for (const spell_correct of [false, true]) {
        const res = await search(h, token, { q, spell_correct, type: 'category', num_docs: 20 });
        expect(res.status, q.slice(0, 20)).toBe(200);
        expect(Array.isArray(res.body.results)).toBe(true);
      }
    }
    expect(titlesOf(await search(h, token, { q: 'repo '.repeat(1000), sort: 'latest' }))).toEqual([
      'RBI holds repo rate at 6.50%',
      'Rate cycle outlook',
    ]);
    const over = await search(h, token, { q: 'repo '.repeat(1001) });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('q: q must be at most 5000 characters');
  });
});
