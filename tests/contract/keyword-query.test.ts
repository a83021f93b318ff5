import { describe, expect, it } from 'vitest';
import { KEYWORD_MESSAGES } from '../../contract/boards';
import {
  compileKeyword,
  markedTerms,
  parseKeywordQuery,
  termStems,
  textIndex,
} from '../../contract/keyword-query';

/** Whether `keyword` matches a document with this title and text. */
const matches = (keyword: string, title: string, text = '') =>
  compileKeyword(keyword)(textIndex(title, text));

const HEADLINE = 'Deccan Bank raises FY25 guidance; net profit up 12%';
const BODY = "Moody's affirmed the lender's rating. The 10-K was filed with the SEC.";

describe('the boolean keyword language (002 §5)', () => {
  it('matches whole words, case-insensitively, in the title or the text', () => {
    expect(matches('deccan', HEADLINE)).toBe(true);
    expect(matches('DECCAN', HEADLINE)).toBe(true);
    expect(matches('affirmed', HEADLINE, BODY)).toBe(true);
    // By word: "bank" is not "banking", "raise" is not "raises".
    expect(matches('banking', HEADLINE)).toBe(false);
    expect(matches('raise', HEADLINE)).toBe(false);
  });

  it('reads straight, curly, single and triple quotes as phrases', () => {
    expect(matches('"net profit"', HEADLINE)).toBe(true);
    expect(matches('"profit net"', HEADLINE)).toBe(false);
    expect(matches('\u201cnet profit\u201d', HEADLINE)).toBe(true);
    expect(matches("'net profit'", HEADLINE)).toBe(true);
    expect(matches('\u2018raises FY25\u2019', HEADLINE)).toBe(true);
    expect(matches('"""net profit"""', HEADLINE)).toBe(true);
  });

  it('takes a word with inner punctuation as the phrase of its parts', () => {
    expect(matches("Moody's", '', BODY)).toBe(true);
    expect(matches('10-K', '', BODY)).toBe(true);
    expect(matches('10-Q', '', BODY)).toBe(false);
  });

  it('has AND, +, and side by side meaning both', () => {
    expect(matches('deccan AND guidance', HEADLINE)).toBe(true);
    expect(matches('deccan + guidance', HEADLINE)).toBe(true);
    expect(matches('deccan guidance', HEADLINE)).toBe(true);
    expect(matches('deccan AND cement', HEADLINE)).toBe(false);
    expect(matches('deccan cement', HEADLINE)).toBe(false);
  });

  it('has OR and | meaning either', () => {
    expect(matches('cement OR guidance', HEADLINE)).toBe(true);
    expect(matches('cement | guidance', HEADLINE)).toBe(true);
    expect(matches('cement|steel', HEADLINE)).toBe(false);
  });

  it('has NOT and - meaning without', () => {
    expect(matches('deccan NOT cement', HEADLINE)).toBe(true);
    expect(matches('deccan NOT guidance', HEADLINE)).toBe(false);
    expect(matches('deccan -guidance', HEADLINE)).toBe(false);
    expect(matches('deccan - guidance', HEADLINE)).toBe(false);
    expect(matches('deccan -cement', HEADLINE)).toBe(true);
  });

  it('binds AND tighter than OR, and parentheses group', () => {
    // cement OR (deccan AND steel): neither side holds.
    expect(matches('cement OR deccan AND steel', HEADLINE)).toBe(false);
    // (cement OR deccan) AND guidance.
    expect(matches('(cement OR deccan) AND guidance', HEADLINE)).toBe(true);
    expect(matches('(cement OR steel) AND guidance', HEADLINE)).toBe(false);
    expect(matches('deccan AND NOT (cement OR guidance)', HEADLINE)).toBe(false);
    expect(matches('((deccan))', HEADLINE)).toBe(true);
  });

  it('treats lower-case and/or/not as words', () => {
    expect(matches('deccan and cement', HEADLINE)).toBe(false);
    expect(matches('"the lender" and', '', `${BODY} and more`)).toBe(true);
  });

  it('reports invalid input with the validator messages and still reads it', () => {
    expect(parseKeywordQuery('(deccan OR bank').problem).toBe(KEYWORD_MESSAGES.parentheses);
    expect(parseKeywordQuery('deccan AND').problem).toBe(KEYWORD_MESSAGES.operatorsAtEnds);
    expect(parseKeywordQuery('| deccan').problem).toBe(KEYWORD_MESSAGES.operatorsAtEnds);
    expect(parseKeywordQuery('"net profit').problem).toBe(KEYWORD_MESSAGES.quotes);
    expect(parseKeywordQuery('deccan "bank"').problem).toBeNull();
    // Read as well as it can be: the dangling operator ignored, the open quote running on.
    expect(matches('(deccan OR cement', HEADLINE)).toBe(true);
    expect(matches('deccan AND', HEADLINE)).toBe(true);
    expect(matches('"net profit', HEADLINE)).toBe(true);
    expect(matches('deccan)) OR (', HEADLINE)).toBe(true);
  });

  // CPU-bound (a 100,000-word query among others): more than the default 5 s on a busy machine.
  it('never throws, and an empty query matches nothing', { timeout: 30_000 }, () => {
    const inputs = [
      '',
      '   ',
      '()',
      ')(',
      '"',
      '""',
      'AND OR NOT',
      '+-|',
      '-',
      '(((((((((('.repeat(50),
      'NOT '.repeat(500),
      ')))'.repeat(100),
      '"\u201c\u2018\'',
      '\u0000\uffff\ud83d\ude00',
      'a'.repeat(10_000),
      'NOT '.repeat(100_000) + 'deccan',
      '('.repeat(100_000) + 'deccan',
    ];
    for (const input of inputs) {
      expect(() => parseKeywordQuery(input)).not.toThrow();
      expect(() => matches(input, HEADLINE, BODY)).not.toThrow();
    }
    expect(matches('', HEADLINE)).toBe(false);
    expect(matches('()', HEADLINE)).toBe(false);
    expect(matches('&&', HEADLINE)).toBe(false);
    // Nesting past what is read still finds the word inside.
    expect(matches(`${'('.repeat(1000)}deccan${')'.repeat(1000)}`, HEADLINE)).toBe(true);
    expect(matches(`${'NOT '.repeat(1001)}deccan`, HEADLINE)).toBe(false);
  });
});

describe('the terms a query marks (search highlights and the preview alike)', () => {
  const marks = (query: string) => markedTerms(parseKeywordQuery(query).expr);

  it('is every word and phrase not excluded, as stems, in reading order, once each', () => {
    expect(marks('"interest rates" AND NOT cuts')).toEqual([['interest', 'rate']]);
    expect(marks('banks -(rates OR fall) | follow')).toEqual([['bank'], ['follow']]);
    expect(marks('Companies employed companies 10-K')).toEqual([
      ['compani'],
      ['emploi'],
      ['10', 'k'],
    ]);
    expect(marks('“net income” Café')).toEqual([['net', 'incom'], ['cafe']]);
  });

  it('marks what an exclusion of an exclusion wants', () => {
    expect(marks('NOT NOT rates')).toEqual([['rate']]);
    expect(marks('held --rates')).toEqual([['held'], ['rate']]);
  });

  it('marks nothing for a query of exclusions or operators alone', () => {
    expect(marks('NOT rates')).toEqual([]);
    expect(marks('AND OR |')).toEqual([]);
    expect(marks('')).toEqual([]);
  });

  it('stems a term as the search index does', () => {
    expect(termStems(['filings', 'Companies', 'q3', 'Café'])).toEqual([
      'file',
      'compani',
      'q3',
      'cafe',
    ]);
  });
});
