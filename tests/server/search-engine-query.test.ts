import { describe, expect, it } from 'vitest';
import { parseKeywordQuery } from '../../contract/keyword-query';
import { MAX_PASSAGE, MIN_PASSAGE, splitPassages } from '../../server/search/passages';
import {
  exprWords,
  normalizeExpr,
  shareBounds,
  termStems,
  toFts5,
  toTsquery,
} from '../../server/search/query';

/**
 * The engine-neutral parts of the engine: a parsed query as each engine's syntax (only quoted
 * stems ever reach an engine), the stems both engines match words by, and passages' spans.
 */

const fts = (q: string) => toFts5(parseKeywordQuery(q).expr!, 'U', '{title body}');
const tsq = (q: string) => toTsquery(parseKeywordQuery(q).expr!);

describe('query rendering', () => {
  it('quotes every stem and renders the operators, for FTS5 and for PostgreSQL', () => {
    expect(fts('tesla -ford')).toBe('(({title body} : "tesla")) NOT (({title body} : "ford"))');
    expect(tsq('tesla -ford')).toBe("(('tesla') & !('ford'))");
    expect(fts('"annual reports" | -taxes')).toBe(
      '({title body} : "annual report") OR ((U) NOT ({title body} : "tax"))',
    );
    expect(tsq('"annual reports" | -taxes')).toBe("(('annual' <-> 'report') | !('tax'))");
    expect(fts('café')).toBe('{title body} : "cafe"');
    // Every word of a phrase is its stem, in order.
    expect(fts('"employees employed"')).toBe('{title body} : "employe emploi"');
    expect(tsq('Companies headquartered')).toBe("(('compani') & ('headquart'))");
  });

  it('never lets engine syntax through, whatever the input', () => {
    const inputs = [
      'NEAR(a b, 2)',
      'title:foo',
      '{title body}: x*',
      'a\'b"c',
      '^x + -y | (z',
      'col : "q" AND NOT',
      "x' OR '1'='1",
      '\\"; DROP TABLE documents; --',
      'a\u0000b\u0007c',
      '\u201cfancy\u201d \u2018quotes\u2019',
    ];
    for (const q of inputs) {
      const expr = parseKeywordQuery(q).expr;
      if (!expr) continue;
      // What is left once the quoted words and the engine's own operators are taken out.
      const ftsRest = toFts5(expr, 'U', '{title body}')
        .replace(/"[\p{L}\p{N} ]+"/gu, '')
        .replace(/\{title body\} :|\bOR\b|\bAND\b|\bNOT\b|\bU\b/g, '');
      expect(ftsRest).toMatch(/^[()\s]*$/);
      const tsRest = toTsquery(expr)
        .replace(/'[\p{L}\p{N}]+'/gu, '')
        .replace(/<->|[&|!]/g, '');
      expect(tsRest).toMatch(/^[()\s]*$/);
    }
  });

  it('merges groups of one operator and reads very deep groups flat', () => {
    const norm = (q: string) => normalizeExpr(parseKeywordQuery(q).expr);
    const term = (w: string) => ({ type: 'term', words: [w] });
    expect(norm('a (b c)')).toEqual({ type: 'and', items: [term('a'), term('b'), term('c')] });
    expect(norm('a | (b | c)')).toEqual({ type: 'or', items: [term('a'), term('b'), term('c')] });
    expect(norm('-(-a)')).toEqual(term('a'));
    // Thirteen groups deep, alternating: the thirteenth is read as all of its words.
    const deep =
      Array.from({ length: 14 }, (_, i) => `(w${i} OR -v${i}`).join(' ') + ')'.repeat(14);
    let e = norm(deep);
    for (let level = 0; e && e.type !== 'term' && level < 40; level++) {
      e = e.type === 'not' ? e.item : e.items[e.items.length - 1];
    }
    expect(e).toEqual(term('w13'));
    expect(toFts5(norm(deep)!, 'U', '{title body}').split('(').length - 1).toBeLessThan(60);
  });

  it('matches a word by its stem, numbers and codes as they are', () => {
    expect(termStems(['filing'])).toEqual(['file']);
    expect(termStems(['filings'])).toEqual(['file']);
    expect(termStems(['company'])).toEqual(['compani']);
    expect(termStems(['companies'])).toEqual(['compani']);
    expect(termStems(['employ'])).toEqual(['emploi']);
    expect(termStems(['employed'])).toEqual(['emploi']);
    expect(termStems(['taxes'])).toEqual(['tax']);
    expect(termStems(['news'])).toEqual(['news']);
    expect(termStems(['q3', '2024', 'Café'])).toEqual(['q3', '2024', 'cafe']);
    // The stems the planner counts documents by, once each.
    expect(exprWords(parseKeywordQuery('employ OR employed -"annual filings"').expr)).toEqual([
      'emploi',
      'annual',
      'file',
    ]);
  });

  it('bounds a query by the document counts of its stems', () => {
    const docs: Record<string, number> = { emploi: 40, annual: 50, report: 20 };
    const of = (q: string) => shareBounds(parseKeywordQuery(q).expr!, (s) => docs[s] ?? 0, 100);
    expect(of('employees')).toEqual({ lo: 0, hi: 0, mid: 0 });
    expect(of('Employed')).toEqual({ lo: 0.4, hi: 0.4, mid: 0.4 });
    // A phrase: at most as common as its rarest stem, and maybe never.
    expect(of('"annual reports"')).toEqual({ lo: 0, hi: 0.2, mid: 0.2 });
  });
});

describe('passages', () => {
  const spans = (text: string) => splitPassages(text).map((p) => text.slice(p.start, p.end));

  it('keeps paragraphs whole, joining short ones to the next', () => {
    const long = 'Revenue rose on strong demand. '.repeat(12).trim();
    const text = `  Short intro.\n\n${long}\n\nTiny.\n \n${long}\n`;
    expect(spans(text)).toEqual([`Short intro.\n\n${long}`, `Tiny.\n \n${long}`]);
    expect(splitPassages(text)[0]).toEqual({ ordinal: 0, start: 2, end: 2 + 14 + long.length });
    expect(splitPassages('')).toEqual([]);
    expect(splitPassages(' \n\n \t ')).toEqual([]);
    expect(spans('One line.')).toEqual(['One line.']);
  });

  it('cuts a long paragraph at sentence ends, then at word boundaries', () => {
    const sentence = (n: number) => `Sentence ${String(n).padStart(2, '0')} ${'x'.repeat(237)}.`;
    const sentences = Array.from({ length: 10 }, (_, i) => sentence(i));
    const para = sentences.join(' ');
    // Three sentences of 250 characters make 752; a fourth would pass 800; the last one alone
    // would be short, so it joins the passage before it.
    expect(spans(para)).toEqual([
      sentences.slice(0, 3).join(' '),
      sentences.slice(3, 6).join(' '),
      sentences.slice(6).join(' '),
    ]);
    const words = 'word '.repeat(700).trim();
    for (const piece of spans(words)) {
      expect(piece.length).toBeLessThanOrEqual(MAX_PASSAGE);
      expect(piece).toMatch(/^word( word)*$/);
    }
    const blob = 'z'.repeat(3000);
    expect(spans(blob)).toEqual(['z'.repeat(1200), 'z'.repeat(1200), 'z'.repeat(600)]);
    expect(MIN_PASSAGE).toBe(300);
  });
});
