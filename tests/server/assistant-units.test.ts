import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeSentence } from '../../server/assistant/evidence';
import { holdsFigure } from '../../server/assistant/sentence-holds';
import { analyseQuestion, type QuestionAnalysis } from '../../server/assistant/question';
import { answerUnits, throughList } from '../../server/assistant/sentences';
import { readPassages } from '../../server/assistant/extractive-pick';
import { createHarness, type Harness } from './harness';

/**
 * Issue 16: what the assistant reads as one unit (a list with its lead-in, a row of a table
 * shredded one cell per line) and the questions a researcher words differently: asides, kinds of
 * companies, credit ratings, "HDD" for hard drives, "indicative" for a predictor. Literal text
 * from the 10-K filings of tests/fixtures/sec-10k.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness('sqlite');
});
afterAll(async () => {
  await h?.close();
});

const SEAGATE =
  'Principal Competitors. \nWe compete with manufacturers of storage solutions and the other principal manufacturers in the data storage solution industry including:\n•\nMicron Technology, Inc.; \n•\nSamsung Electronics; \n•\nSK hynix, Inc.; \n•\nKioxia Holdings Corporation; \n•\nToshiba Corporation; and \n•\nWestern Digital Corporation, operating the Western Digital, Hitachi Global Storage Technologies and SanDisk brands.\nPrice Erosion. \nHistorically, our industry has been characterized by price declines.';

const units = (text: string) =>
  answerUnits(text).map((u) => ({ text: text.slice(u.start, u.end), list: u.list, row: u.row }));

describe('units the assistant reads', () => {
  it('reads a list with the sentence leading into it as one unit', () => {
    expect(units(SEAGATE)).toEqual([
      { text: 'Principal Competitors.', list: false, row: false },
      {
        text: SEAGATE.slice(SEAGATE.indexOf('We compete'), SEAGATE.indexOf('\nPrice Erosion')),
        list: true,
        row: false,
      },
      { text: 'Price Erosion.', list: false, row: false },
      {
        text: 'Historically, our industry has been characterized by price declines.',
        list: false,
        row: false,
      },
    ]);
  });

  it('reads a table row shredded one cell per line as a row', () => {
    expect(units('Net revenues\n$\n6,362\n$\n6,318\nGross profit')).toEqual([
      { text: 'Net revenues\n$\n6,362\n$\n6,318', list: false, row: true },
      { text: 'Gross profit', list: false, row: false },
    ]);
  });

  it('makes a passage stopping inside a list read on to its end', () => {
    const stop = SEAGATE.indexOf('Samsung Electronics; ') + 'Samsung Electronics;'.length;
    expect(SEAGATE.slice(0, throughList(SEAGATE, 0, stop)).endsWith('SanDisk brands.')).toBe(true);
    // A passage ending where a sentence does is left as it is.
    const end = SEAGATE.indexOf('Principal Competitors.') + 'Principal Competitors.'.length;
    expect(throughList(SEAGATE, 0, end)).toBe(end);
  });
});

describe('questions worded differently', () => {
  const seagate = { entity: null, title: 'Seagate news' };

  it('answers who a company competes with from a list of names', async () => {
    const q = await analyseQuestion(h.db, 'Who are the principal competitors in data storage?');
    const list = units(SEAGATE)[1].text;
    expect(judgeSentence(q, list, seagate).eligible).toBe(true);
    expect(judgeSentence(q, 'Micron Technology, Inc.;', seagate).eligible).toBe(false);
  });

  it('reads HDD as hard drives', async () => {
    const q = await analyseQuestion(h.db, 'Who competes with Seagate in hard drives?');
    expect(
      judgeSentence(q, 'In HDD, we compete with Seagate and Toshiba Electronic Devices.', seagate)
        .eligible,
    ).toBe(true);
  });

  it('searches the words of an aside without requiring them', async () => {
    const q = await analyseQuestion(
      h.db,
      'How large was the deferred revenue balance, which approximates its remaining performance obligations, at the end of fiscal 2023?',
    );
    expect(q.groups.map((g) => g.word)).toEqual(['deferred', 'revenue']);
    expect(q.soft).toEqual(expect.arrayContaining(['remaining', 'performance', 'obligations']));
    const paren = await analyseQuestion(
      h.db,
      'What share of deferred revenue (its remaining performance obligations) is recognized in the next 12 months?',
    );
    expect(paren.groups.map((g) => g.word)).not.toContain('obligations');
    expect(paren.searchWords).toContain('obligations');
    // The aside in brackets renames the term before it: one more way of writing it.
    expect(paren.groups.find((g) => g.word === 'revenue')?.alternatives).toContainEqual([
      'remain',
      'perform',
      'oblig',
    ]);
  });

  it('reads "a good predictor" in a sentence saying "necessarily indicative"', async () => {
    const q = await analyseQuestion(
      h.db,
      'Does the company think its product backlog is a good predictor of future results?',
    );
    expect(
      judgeSentence(
        q,
        'We do not believe that our product backlog at any particular time is necessarily indicative of our future operating results.',
        seagate,
      ).eligible,
    ).toBe(true);
  });
});

describe('kinds and ratings', () => {
  const asking = async (question: string): Promise<QuestionAnalysis> =>
    analyseQuestion(h.db, question);

  it('asks for a kind of company, which "many companies" is not', async () => {
    const q = await asking('What kinds of companies does the firm compete against?');
    expect(q.figure).toBe('kind');
    expect(
      holdsFigure(
        'Our hybrid cloud solutions primarily compete with legacy IT and storage vendors.',
        q,
      ),
    ).toBe(true);
    expect(holdsFigure('We compete with many companies in the markets we serve.', q)).toBe(false);
  });

  it('asks for credit ratings, which a sentence about ratings without one does not hold', async () => {
    const q = await asking('What credit ratings does the long-term debt carry?');
    expect(q.figure).toBe('rating');
    expect(
      holdsFigure(
        "We currently have long-term debt ratings of AA- and A1 from Standard and Poor's Corporation and Moody's Investor Services, respectively.",
        q,
      ),
    ).toBe(true);
    expect(holdsFigure('If our credit ratings are lowered, borrowing costs may increase.', q)).toBe(
      false,
    );
  });
});

describe('a question of two parts', () => {
  it("answers the second with the sentence naming the first's answer", async () => {
    const q = await analyseQuestion(
      h.db,
      'Who is the largest customer and what share of revenue did it account for in fiscal 2023?',
    );
    const text =
      'Our revenues have been substantially impacted by significant fluctuations in sales to our largest customer, Nokia. ' +
      'To our knowledge, none of our other OEM customers accounted for more than 10% of our net revenues in any of these periods. ' +
      'Purchases by Nokia represented approximately 17%, 29% and 39% of our net revenues in fiscal 2023, 2022 and 2021, respectively.';
    const passage = {
      n: 1,
      document_id: 'd1',
      title: 'GSI news',
      source_label: 'News',
      unix: 0,
      start: 0,
      end: text.length,
      text,
      score: 1,
      entity: null,
    };
    const reading = readPassages(q.question, q, [passage]);
    expect(reading.chosen.slice(0, 2).map((c) => c.text.slice(0, 22))).toEqual([
      'Our revenues have been',
      'Purchases by Nokia rep',
    ]);
  });
});

describe('the whole company or a part of it', () => {
  it("prefers the company's revenues to a segment's when asked about the company's", async () => {
    // The harness holds no filing of Nike's: the analysis is given the filer a filings feed makes.
    const asked = await analyseQuestion(h.db, "How much did Nike's revenues fall in fiscal 2023?");
    const q: QuestionAnalysis = {
      ...asked,
      entities: [{ key: 'nike', name: 'NIKE, Inc.', mention: 'Nike', aliases: ['nike'] }],
      unknown: [],
    };
    const nike = { entity: 'nike', title: 'NIKE, Inc. Form 10-K (fiscal 2023)' };
    const judge = (s: string) => judgeSentence(q, s, nike);
    expect(
      judge('Revenues decreased $506 million, or 5%, for the fiscal year ended June 30, 2023.'),
    ).toMatchObject({ strong: true, whole: true });
    expect(judge('Flash revenue decreased 38% in 2023 compared to 2022.')).toMatchObject({
      strong: true,
      whole: false,
    });
    expect(
      judge(
        'For the fiscal year ended June 30, 2023, revenues at the Digital Real Estate Services segment decreased $202 million, or 12%.',
      ),
    ).toMatchObject({ strong: true, whole: false });
    expect(
      judge(
        'In Client, the 39% decrease in revenue in 2023 compared to 2022 reflects lower prices.',
      ),
    ).toMatchObject({ whole: false });
  });
});
