import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeSentence } from '../../server/assistant/evidence';
import { holdsFigure, holdsNumber } from '../../server/assistant/sentence-holds';
import { analyseQuestion, type QuestionAnalysis } from '../../server/assistant/question';
import { createHarness, type Harness } from './harness';

/**
 * Issue 16: the kind of figure a question asks for, read from the question, and whether a
 * sentence holds one of that kind (a count is no percentage, an amount no share, a date's day
 * or a name's number no figure at all). Literal questions and sentences, many from the 10-K
 * filings of tests/fixtures/sec-10k.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness('sqlite');
});
afterAll(async () => {
  await h?.close();
});

const asking = (figure: QuestionAnalysis['figure']): QuestionAnalysis => ({
  question: '',
  entities: [],
  unknown: [],
  groups: [],
  soft: [],
  figure,
  searchWords: [],
});

describe('the figure a question asks for', () => {
  it.each([
    ['How many people does Nike employ?', 'count'],
    ["What is Atlassian's headcount?", 'count'],
    ["What were Palo Alto Networks' total sales in fiscal 2023?", 'amount'],
    ['How much debt does FedEx carry?', 'amount'],
    ["What percentage of Seagate's revenue comes from OEM customers?", 'percent'],
    ["How much did Nike's revenue grow in fiscal 2023?", 'change'],
    ["How much of Atlassian's revenue is recurring?", 'change'],
    ["When does Seagate's fiscal year end?", 'date'],
    ['Where is Verde Bio based?', 'place'],
    ['Who does FedEx compete with?', 'name'],
    // What is asked is named before the first preposition: risks, not a rate.
    ["What are Nike's risks from foreign currency exchange rates?", null],
    ["What was FedEx's on-time delivery rate in fiscal 2023?", 'number'],
  ])('%s -> %s', async (question, figure) => {
    expect((await analyseQuestion(h.db, question)).figure).toBe(figure);
  });
});

describe('a figure of the kind asked', () => {
  it('is no date\u2019s day and no year alone', () => {
    expect(
      holdsNumber(
        'As of April 28, 2023, the remaining performance obligations approximated our deferred revenue.',
      ),
    ).toBe(false);
    expect(holdsNumber('Revenues were $51.2 billion in fiscal 2023.')).toBe(true);
  });

  it('counts people, not shares of them, names or days', () => {
    const count = asking('count');
    expect(holdsFigure('As of April 28, 2023, we had approximately 12,000 employees.', count)).toBe(
      true,
    );
    expect(holdsFigure('Over 50% of our employees work in research and development.', count)).toBe(
      false,
    );
    expect(holdsFigure('We supported our employees during the COVID-19 pandemic.', count)).toBe(
      false,
    );
    expect(holdsFigure('News Corp has six reportable segments.', count)).toBe(true);
  });

  it('takes an amount of money for an amount, a percentage for a share, either for a change', () => {
    expect(
      holdsFigure('Total revenue grew 25% year-over-year to $6.9 billion.', asking('amount')),
    ).toBe(true);
    expect(
      holdsFigure(
        'For fiscal 2023, 49.7% of our total revenue was derived from sales to three distributors.',
        asking('amount'),
      ),
    ).toBe(false);
    expect(
      holdsFigure('Arrow Electronics accounted for 24% of net revenues.', asking('percent')),
    ).toBe(true);
    expect(holdsFigure('Revenues decreased $74 million.', asking('change'))).toBe(true);
  });

  it('takes a City, State for a place, and a name that is no place for a name', () => {
    expect(
      holdsFigure(
        'Our principal executive office is located at 5 Cowboys Way, Frisco, Texas.',
        asking('place'),
      ),
    ).toBe(true);
    expect(holdsFigure('We compete with adidas, Anta, ASICS and Puma.', asking('name'))).toBe(true);
    expect(
      holdsFigure(
        'We face competition for personnel in China, Singapore and Thailand.',
        asking('name'),
      ),
    ).toBe(false);
  });
});

describe('what a sentence must hold', () => {
  it('holds every term of a strong answer, all but one of three or more, the last always', async () => {
    const q = await analyseQuestion(h.db, "What was FedEx's on-time delivery rate in fiscal 2023?");
    const doc = { entity: null, title: 'FedEx news' };
    // Time and delivery but no rate: the rate is what is asked.
    expect(
      judgeSentence(
        q,
        'FedEx International Economy delivers in two to five business days on time.',
        doc,
      ).eligible,
    ).toBe(false);
  });

  it('reads "founded" as written: "can be found in" founds nothing', async () => {
    const q = await analyseQuestion(h.db, 'What year was Seagate founded?');
    const doc = { entity: null, title: 'Seagate news' };
    expect(
      judgeSentence(
        q,
        'Seagate discussions of 2021 can be found in Part II of the 2022 report.',
        doc,
      ).eligible,
    ).toBe(false);
    expect(judgeSentence(q, 'Seagate was founded in 1979 in Scotts Valley.', doc).strong).toBe(
      true,
    );
  });

  it('answers each part of a two-part question on its own', async () => {
    const q = await analyseQuestion(
      h.db,
      "How much did Nike's sales grow in fiscal 2023, and what drove it?",
    );
    expect(q.parts?.map((p) => [p.groups.map((g) => g.word), p.figure])).toEqual([
      [['sales', 'grow'], 'change'],
      [['drove'], null],
    ]);
    const doc = { entity: null, title: 'Nike news' };
    const growth = judgeSentence(q, 'Nike sales grew 10% in fiscal 2023.', doc);
    expect([growth.eligible, growth.strong]).toEqual([true, true]);
    const cause = judgeSentence(q, 'Nike said demand for running shoes drove the year.', doc);
    expect([cause.eligible, cause.strong]).toEqual([true, false]);
  });
});
