import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNT, DEMO_ANALYST, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { iso } from '../time';

/** Titles a research team would find in its inbox; paired with a body and a link. */
const NOTIFICATIONS: Array<[string, string, string | null]> = [
  [
    'RBI keeps repo rate at 6.50%',
    'The Monetary Policy Committee voted 4-2 to hold; stance stays "withdrawal of accommodation".',
    '/feeds/home',
  ],
  [
    'HDFC Bank Q3 results filed',
    'Net profit up 33% year on year; NIM at 3.4%. The filing is in your BSE filings feed.',
    '/feeds/home',
  ],
  [
    'New SEBI circular on F&O eligibility',
    'Stricter criteria for stocks in the derivatives segment take effect next quarter.',
    '/feeds/home',
  ],
  [
    'Infosys earnings call transcript available',
    'Management raised FY revenue guidance to 3.75-4.5% in constant currency.',
    '/feeds/home',
  ],
  ['US CPI comes in at 3.1%', 'Core inflation 3.9% year on year, slightly above consensus.', null],
  ['FOMC minutes released', 'Members saw rates at or near their peak; cuts data dependent.', null],
  [
    'Reliance Industries annual report published',
    "Capex guidance and new energy update in the chairman's letter.",
    '/feeds/home',
  ],
  [
    'Tata Motors: JLR wholesale volumes up 27%',
    'Monthly volume update from the exchange filing.',
    '/feeds/home',
  ],
  [
    'Your report "Indian private banks Q3" is ready',
    'The report generated from 14 documents is ready to review.',
    '/report',
  ],
  [
    'Asha Analyst commented on "NBFC liquidity"',
    '"Worth comparing with the 2018 IL&FS episode."',
    null,
  ],
  [
    'SEC adopts climate disclosure rules',
    'Large accelerated filers must disclose Scope 1 and 2 emissions.',
    '/feeds/home',
  ],
  ['Crude oil above $85', 'Brent rose 2.3% after OPEC+ extended voluntary cuts.', null],
  [
    'Adani Ports bond issue oversubscribed',
    'The $300m issue drew bids of 4.2 times the size.',
    '/feeds/home',
  ],
  [
    'ICICI Bank board approves fund raise',
    'Up to Rs 25,000 crore through bonds over the next year.',
    '/feeds/home',
  ],
  [
    'FASB issues update on segment reporting',
    'ASU 2023-07 improves reportable segment disclosures.',
    '/feeds/home',
  ],
  [
    'Nifty 50 closes at a record high',
    'Banks and IT led; breadth positive with 34 advances.',
    null,
  ],
  [
    'New documents in "Semiconductor supply chain"',
    '12 documents added to the feed since your last visit.',
    '/feeds/home',
  ],
  [
    'Bajaj Finance: RBI lifts lending curbs',
    'eCOM and Insta EMI Card lending can resume.',
    '/feeds/home',
  ],
  [
    'PCAOB inspection report: Big Four findings',
    'Deficiency rates fell for the first time in four years.',
    '/feeds/home',
  ],
  [
    'Your notebook "Rate cycle" was shared with you',
    'Demo User shared a notebook with the research group.',
    null,
  ],
  [
    'Wipro announces share buyback',
    'Buyback of up to Rs 12,000 crore at Rs 445 a share.',
    '/feeds/home',
  ],
  ['FRED: 10-year Treasury yield at 4.25%', 'Daily series updated.', null],
  [
    'Maruti Suzuki monthly sales',
    'Domestic passenger vehicle sales up 8% month on month.',
    '/feeds/home',
  ],
  [
    'NZX: Fletcher Building guidance cut',
    'EBIT guidance lowered on weaker residential demand.',
    '/feeds/home',
  ],
  [
    'Welcome to Demo Research',
    'Your workspace is ready: explore feeds, search and the assistant.',
    '/home',
  ],
];

const HOUR_MS = 3600 * 1000;

/**
 * The demo account's inbox: 25 notifications an hour apart, the 5 oldest read, and a welcome
 * for the analyst. Runs after the auth seed (domains.ts order), which made both accounts.
 */
export const seedNotifications = async (db: Db, { now }: SeedContext) => {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  const analyst = await findUserByEmail(db, DEMO_ANALYST.email);
  if (!demo || !analyst) throw new Error('notifications seed: the auth seed made no demo accounts');
  // Newest first on screen: the last entry above is the oldest.
  const rows = NOTIFICATIONS.map(([title, body, link], i) => ({
    id: randomUUID(),
    user_id: demo.id,
    title,
    body,
    link,
    read: i >= 20 ? 1 : 0,
    created_at: iso(now - (i + 1) * HOUR_MS),
  }));
  rows.push({
    id: randomUUID(),
    user_id: analyst.id,
    title: 'Welcome to Demo Research',
    body: 'Demo User added you to the organisation.',
    link: '/home',
    read: 0,
    created_at: iso(now - HOUR_MS),
  });
  await db.insertInto('notifications').values(rows).execute();
};
