import { describe, expect, it } from 'vitest';
import { supportSpans } from '../../server/assistant/overlap';
import { verifyAnswer } from '../../server/assistant/openai-verify';
import type { RetrievedPassage } from '../../server/assistant/answerer';

const PASSAGE =
  'Tata Motors reported revenue of Rs 1.1 lakh crore for the quarter. Net profit rose 12% on strong ' +
  'demand for its electric vehicles. The board declared a dividend of Rs 6 per share.';

const spanTexts = (text: string, spans: Array<{ start: number; end: number }> | null) =>
  spans?.map((s) => text.slice(s.start, s.end)) ?? null;

describe('supportSpans', () => {
  it('supports a sentence whose content words the passage holds, and marks the sentence holding them', () => {
    const spans = supportSpans(
      'Net profit rose 12 percent thanks to electric vehicle demand.',
      PASSAGE,
    );
    expect(spanTexts(PASSAGE, spans)).toEqual([
      'Net profit rose 12% on strong demand for its electric vehicles.',
    ]);
  });

  it('marks each passage sentence a sentence joins facts from', () => {
    const spans = supportSpans('Tata Motors declared a dividend as profit rose.', PASSAGE);
    expect(spanTexts(PASSAGE, spans)).toEqual([
      'Tata Motors reported revenue of Rs 1.1 lakh crore for the quarter.',
      'Net profit rose 12% on strong demand for its electric vehicles.',
      'The board declared a dividend of Rs 6 per share.',
    ]);
  });

  it('refuses a sentence the passage does not say', () => {
    expect(supportSpans('Infosys won a large banking contract in Europe.', PASSAGE)).toBeNull();
    // One shared word is never enough, however short the sentence.
    expect(supportSpans('Dividend cut.', PASSAGE)).toBeNull();
    expect(supportSpans('Yes.', PASSAGE)).toBeNull();
  });

  it('matches words by stem: plurals, singulars and other inflections', () => {
    const spans = supportSpans('The dividends per shares were declared.', PASSAGE);
    expect(spanTexts(PASSAGE, spans)).toEqual(['The board declared a dividend of Rs 6 per share.']);
    const declaring = supportSpans('The board declares dividends.', PASSAGE);
    expect(spanTexts(PASSAGE, declaring)).toEqual([
      'The board declared a dividend of Rs 6 per share.',
    ]);
  });
});

const passage = (n: number, text: string): RetrievedPassage => ({
  n,
  document_id: `doc-${n}`,
  title: `Document ${n}`,
  source_label: 'Newswire',
  unix: 1_700_000_000,
  start: 0,
  end: text.length,
  text,
  score: 1,
  entity: null,
});

describe('verifyAnswer', () => {
  const passages = [
    passage(1, PASSAGE),
    passage(2, 'Infosys signed a five year banking contract with a European lender.'),
  ];

  it('maps markers to citations and drops the ones whose passage does not support the sentence', () => {
    const v = verifyAnswer(
      'Tata Motors grew profit 12% on electric vehicle demand [1][2]. Infosys signed a banking contract [2]. The dividend was Rs 6 per share. [7]',
      passages,
    );
    expect(v.answer).toBe(
      'Tata Motors grew profit 12% on electric vehicle demand [1]. Infosys signed a banking contract [2]. The dividend was Rs 6 per share.',
    );
    expect(v.sentences.map((s) => [s.sentence, s.cites.map((c) => c.n)])).toEqual([
      ['Tata Motors grew profit 12% on electric vehicle demand.', [1]],
      ['Infosys signed a banking contract.', [2]],
      ['The dividend was Rs 6 per share.', []],
    ]);
    // Issue 16: a claim left uncited may be another organisation's figure: not HIGH.
    expect(v.quality).toBe('LOW');
  });

  it('is HIGH when every claim is cited', () => {
    const v = verifyAnswer('Tata Motors grew profit 12% on electric vehicle demand [1].', passages);
    expect(v.sentences.map((s) => s.cites.map((c) => c.n))).toEqual([[1]]);
    expect(v.quality).toBe('HIGH');
  });

  it('reads markers after the period, and in lists, as citing the sentence before them', () => {
    const v = verifyAnswer(
      'Results:\n- Net profit rose 12%.[1] Infosys signed a banking contract. [2][1]\n- Dividend of Rs. 6 per share declared [1, 2].',
      passages,
    );
    expect(v.answer).toBe(
      'Results:\n- Net profit rose 12%.[1] Infosys signed a banking contract. [2]\n- Dividend of Rs. 6 per share declared [1].',
    );
    expect(v.sentences.map((s) => [s.sentence, s.cites.map((c) => c.n)])).toEqual([
      ['Results:', []],
      ['Net profit rose 12%.', [1]],
      ['Infosys signed a banking contract.', [2]],
      ['Dividend of Rs. 6 per share declared.', [1]],
    ]);
  });

  it('is GENERATIVE when nothing stays cited, LOW when most claims are unsupported', () => {
    expect(verifyAnswer('Paris is the capital of France [2].', passages)).toMatchObject({
      answer: 'Paris is the capital of France.',
      quality: 'GENERATIVE',
    });
    expect(
      verifyAnswer(
        'Tata Motors profit rose 12% [1]. Paris hosts many museums [1]. Rome has old churches.',
        passages,
      ).quality,
    ).toBe('LOW');
    expect(verifyAnswer('I could not find this in your data.', passages).quality).toBe('LOW');
  });
});
