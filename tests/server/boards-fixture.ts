import { EMPTY_DEFINITION } from '../../contract/boards';
import { addDocs, follow, news } from './documents-helpers';
import type { Harness } from './harness';

/**
 * The corpus the boards suites read: news, Indian and US filings, written once per harness
 * (documents belong to sources, which every test's fresh user follows).
 */
export const FIXTURE_SOURCES = ['demo_markets_wire', 'demo_india_filings', 'demo_us_filings'];

export const writeFixture = async (h: Harness) => {
  await addDocs(h, 'demo_markets_wire', [
    news(
      'n1',
      'RBI holds repo rate at 6.50%',
      'The Monetary Policy Committee voted 4-2 to hold.',
      1,
      {
        categories: ['Monetary Policy'],
      },
    ),
    news(
      'n2',
      'Fed leaves rates unchanged',
      'The FOMC kept the range steady; inflation is above target.',
      2,
      {
        categories: ['Monetary Policy'],
      },
    ),
    news('n3', 'India retail inflation eases to 4.3%', 'Vegetable prices cooled.', 3, {
      categories: ['Inflation'],
    }),
    news(
      'n4',
      'Deccan Bank Q3 profit rises 12%',
      'Deccan Commercial Bank Ltd reported a wider margin.',
      4,
      {
        company_name: 'Deccan Commercial Bank Ltd',
        categories: ['Earnings'],
      },
    ),
  ]);
  await addDocs(h, 'demo_india_filings', [
    news(
      'f1',
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      'The board approved results.',
      5,
      {
        company_name: 'Deccan Commercial Bank Ltd',
        security_code: '532418',
        category: 'Board Meeting',
      },
    ),
    news('f2', 'Aravalli Steel Industries Ltd - Credit Rating', 'CRISIL reaffirmed AA.', 6, {
      company_name: 'Aravalli Steel Industries Ltd',
      security_code: '500972',
      category: 'Credit Rating',
    }),
  ]);
  await addDocs(h, 'demo_us_filings', [
    news('u1', '10-K - Northwind Semiconductor Inc (0001532047) (Filer)', 'Annual report.', 7, {
      company_name: 'Northwind Semiconductor Inc',
      category: '10-K',
    }),
  ]);
};

/** A fresh user following the fixture's sources. */
export const followFixture = async (h: Harness, token: string) => {
  for (const key of FIXTURE_SOURCES) await follow(h, token, key);
};

/** A draft with these include (and exclude) keywords. */
export const draft = (
  name: string,
  include: string[],
  exclude: string[] = [],
  extra: Partial<typeof EMPTY_DEFINITION> = {},
) => ({
  board_name: name,
  definition: {
    ...EMPTY_DEFINITION,
    keywords: {
      include: include.map((keyword) => ({ keyword, valid: true })),
      exclude: exclude.map((keyword) => ({ keyword, valid: true })),
    },
    ...extra,
  },
});
