import { describe, expect, it } from 'vitest';
import {
  fold,
  isStopWord,
  sameWord,
  stem,
  stemsOf,
  STOP_WORDS,
  wordSpans,
  wordsOf,
} from '../../contract/words';

/**
 * The one way words are matched (contract/words.ts): the tokeniser, accent folding, the Porter
 * stemmer (npm `stemmer`) and the question stop words, as the index, queries, highlights, the
 * assistant and the UI all use them. Expectations are what Porter really answers.
 */

describe('words', () => {
  it('folds accents as the index does', () => {
    expect(fold('Café')).toBe('Cafe');
    expect(fold('naïve résumé Zürich')).toBe('naive resume Zurich');
    expect(fold('plain ascii')).toBe('plain ascii');
    expect(wordsOf('Café')).toEqual(['cafe']);
  });

  it('reads words of letters and digits, lower-cased, anything else parting them', () => {
    expect(wordsOf('FY2023 revenue rose 12% in 2023; see the 10-K.')).toEqual([
      'fy2023',
      'revenue',
      'rose',
      '12',
      'in',
      '2023',
      'see',
      'the',
      '10',
      'k',
    ]);
    expect(wordsOf("Moody's S&P U.S.")).toEqual(['moody', 's', 's', 'p', 'u', 's']);
    expect(wordsOf('  ')).toEqual([]);
    // A decomposed accent stays inside its word, as its composed form does.
    expect(wordsOf('re\u0301sume\u0301 vs résumé')).toEqual(['resume', 'vs', 'resume']);
  });

  it('places each word in the original text', () => {
    expect(wordSpans('Café, 10-K')).toEqual([
      { word: 'cafe', start: 0, end: 4 },
      { word: '10', start: 6, end: 8 },
      { word: 'k', start: 9, end: 10 },
    ]);
    const text = 'Re\u0301sume\u0301 filed';
    expect(wordSpans(text).map((w) => [w.word, text.slice(w.start, w.end)])).toEqual([
      ['resume', 'Re\u0301sume\u0301'],
      ['filed', 'filed'],
    ]);
    // The same words as wordsOf, whatever the text.
    const mixed = 'Ça va? Ünited 2024: naïve CAFÉ-owners, x\u0301';
    expect(wordSpans(mixed).map((w) => w.word)).toEqual(wordsOf(mixed));
  });

  it('stems employ, employed, employs and employing alike; employees is another stem', () => {
    for (const w of ['employ', 'employed', 'employs', 'employing']) expect(stem(w)).toBe('emploi');
    // Porter (and Snowball's English) leave the -ee noun apart from its verb.
    expect(stem('employees')).toBe('employe');
    expect(stem('employee')).toBe('employe');
    expect(sameWord('employees', 'employed')).toBe(false);
    expect(sameWord('employee', 'employees')).toBe(true);
  });

  it('stems plurals and inflections of the same word alike', () => {
    expect([stem('person'), stem('persons')]).toEqual(['person', 'person']);
    expect([stem('revenue'), stem('revenues')]).toEqual(['revenu', 'revenu']);
    expect([stem('headquarter'), stem('headquarters'), stem('headquartered')]).toEqual([
      'headquart',
      'headquart',
      'headquart',
    ]);
    expect([stem('compete'), stem('competes'), stem('competing')]).toEqual([
      'compet',
      'compet',
      'compet',
    ]);
    // "competitor" keeps a stem of its own ("competition" too).
    expect(stem('competitor')).toBe('competitor');
    expect(stem('competition')).toBe('competit');
    expect(sameWord('competitor', 'compete')).toBe(false);
    expect([stem('company'), stem('companies')]).toEqual(['compani', 'compani']);
    expect(sameWord('Companies', 'company')).toBe(true);
    expect(sameWord('filing', 'filed')).toBe(true);
  });

  it('stems only words of English letters: numbers, codes and other scripts stand', () => {
    expect(stem('2023')).toBe('2023');
    expect(stem('10k')).toBe('10k');
    expect(stem('q3')).toBe('q3');
    expect(stem('straße')).toBe('straße');
    expect(stem('हिन्दी')).toBe('हिन्दी');
    // Case and accents are read through, and "news" is not "new".
    expect(stem('Employed')).toBe('emploi');
    expect(stem('Cafés')).toBe('cafe');
    expect(stem('news')).toBe('news');
    expect(stem('new')).toBe('new');
    expect(stemsOf('The 10-K says employees were employed in 2023')).toEqual([
      'the',
      '10',
      'k',
      'sai',
      'employe',
      'were',
      'emploi',
      'in',
      '2023',
    ]);
  });

  it('answers the same stem from its cache', () => {
    const first = stem('headquartered');
    for (let i = 0; i < 3; i++) expect(stem('headquartered')).toBe(first);
  });

  it('keeps the words that carry meaning in finance out of the stop words', () => {
    for (const w of ['top', 'may', 'us', 'net', 'up', 'down', 'over', 'under', 'after']) {
      expect(isStopWord(w), w).toBe(false);
    }
    for (const w of ['before', 'most', 'more', 'less', 'few', 'well', 'own', 'since', 'per']) {
      expect(isStopWord(w), w).toBe(false);
    }
    for (const w of ['share', 'off', 'out', 'going', 'use', 'primary']) {
      expect(isStopWord(w), w).toBe(false);
    }
    for (const w of ['the', 'what', 'did', 'about', 'tell', 'which', 'explain', 'The', 'WHAT']) {
      expect(isStopWord(w), w).toBe(true);
    }
    expect(STOP_WORDS.has('')).toBe(false);
    expect([...STOP_WORDS].every((w) => /^[a-z]+$/.test(w))).toBe(true);
  });
});
