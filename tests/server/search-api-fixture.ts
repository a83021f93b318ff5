import { afterAll, beforeAll } from 'vitest';
import { addDocs, follow, news, newUser } from './documents-helpers';
import { createHarness, type Harness, type Storage } from './harness';

/**
 * The corpus the search API suites read, written once per harness through insertDocuments
 * (so it is indexed as ingestion indexes). Times are hours before the harness clock,
 * 2025-03-03T10:00Z: today (UTC) holds the six newest.
 */
export const SEARCH_SOURCES = [
  'demo_markets_wire',
  'demo_india_filings',
  'demo_us_filings',
  'demo_research',
];

export const writeSearchFixture = async (h: Harness) => {
  await addDocs(h, 'demo_markets_wire', [
    news(
      'n1',
      'RBI holds repo rate at 6.50%',
      'The Monetary Policy Committee voted to hold the repo rate. Inflation remains near target.',
      1,
      { categories: ['Monetary Policy'] },
    ),
    news(
      'n2',
      'Fed leaves rates unchanged',
      'The FOMC kept the range steady; inflation is above target.',
      2,
      { categories: ['Monetary Policy'] },
    ),
    // 2025-03-02T14:00Z: yesterday in UTC, already 3 March in Auckland.
    news('n3', 'India retail inflation eases to 4.3%', 'Vegetable prices cooled in February.', 20, {
      categories: ['Inflation'],
    }),
    // 2025-03-01T08:00Z.
    news(
      'n4',
      'Deccan Bank Q3 profit rises 12%',
      'Deccan Commercial Bank Ltd reported a wider margin.',
      50,
      { company_name: 'Deccan Commercial Bank Ltd', categories: ['Earnings'] },
    ),
    // Ten days back: outside a week.
    news(
      'n5',
      'Crude oil slips on supply worries',
      'Brent crude fell 2% as OPEC output rose.',
      240,
      {
        categories: ['Commodities'],
      },
    ),
  ]);
  await addDocs(h, 'demo_india_filings', [
    news(
      'f1',
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      'The board approved the quarterly results and an interim dividend.',
      5,
      {
        company_name: 'Deccan Commercial Bank Ltd',
        security_code: '532418',
        category: 'Board Meeting',
      },
    ),
    news(
      'f2',
      'Aravalli Steel Industries Ltd - Credit Rating',
      'CRISIL reaffirmed the AA rating on the company bonds.',
      6,
      {
        company_name: 'Aravalli Steel Industries Ltd',
        security_code: '500972',
        category: 'Credit Rating',
      },
    ),
  ]);
  await addDocs(h, 'demo_us_filings', [
    news(
      'u1',
      '10-K - Northwind Semiconductor Inc (0001532047) (Filer)',
      'Annual report for the fiscal year. Inventories normalised.',
      7,
      { company_name: 'Northwind Semiconductor Inc', category: '10-K' },
    ),
  ]);
  await addDocs(h, 'demo_research', [
    news(
      'r1',
      'Rate cycle outlook',
      'We expect the repo rate to fall twice this year as inflation eases.',
      3,
      { categories: ['Macro'] },
    ),
  ]);
};

/** Every title of the fixture, newest first. */
export const NEWEST_FIRST = [
  'RBI holds repo rate at 6.50%',
  'Fed leaves rates unchanged',
  'Rate cycle outlook',
  'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
  'Aravalli Steel Industries Ltd - Credit Rating',
  '10-K - Northwind Semiconductor Inc (0001532047) (Filer)',
  'India retail inflation eases to 4.3%',
  'Deccan Bank Q3 profit rises 12%',
  'Crude oil slips on supply worries',
];

/** A user following the fixture's sources. */
export const followSearchFixture = async (h: Harness, token: string) => {
  for (const key of SEARCH_SOURCES) await follow(h, token, key);
};

/** POST /search (or /search/{source}) with a body; the answer as it came. */
export const search = (h: Harness, token: string | undefined, body: unknown, path = '/search') =>
  h.call('POST', path, { token, body });

/** The titles of an answer's results, in order. */
export const titlesOf = (res: { body: { results: Array<{ title_label: string }> } }) =>
  res.body.results.map((r) => r.title_label);

/**
 * A suite's harness on `storage` with the fixture written and followed by a new user: call in a
 * describe block; the getters answer once beforeAll ran.
 */
export function useSearchFixture(storage: Storage) {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeSearchFixture(h);
    ({ token } = await newUser(h));
    await followSearchFixture(h, token);
  });
  afterAll(async () => {
    await h?.close();
  });
  return { h: () => h, token: () => token };
}
