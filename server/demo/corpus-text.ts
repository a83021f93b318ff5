import {
  ANALYSTS,
  BROKERS,
  INDIAN_COMPANIES,
  MONTHS,
  SECTOR_DRIVERS,
  US_COMPANIES,
  type Company,
  type Sector,
} from './corpus-data';

/**
 * Headlines and bodies of the demo corpus: news by topic and research notes. A piece is a
 * template filled from a seeded random stream, so the same seed always writes the same corpus.
 */

/** A seeded random stream (mulberry32): fast, and the same for the same seed everywhere. */
export type Rng = () => number;
export const rngOf = (seed: number): Rng => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
const monthOf = (unix: number) => new Date(unix * 1000).getUTCMonth();
export const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)];
export const between = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
export const decimal = (r: Rng, lo: number, hi: number, digits = 1) =>
  (lo + r() * (hi - lo)).toFixed(digits);

export type Piece = {
  title: string;
  paragraphs: string[];
  categories: string[];
  company: Company | null;
};

/** 12345 -> "12,345" (toLocaleString is too slow for a million documents). */
export const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const isIndian = (c: Company) => INDIAN_COMPANIES.includes(c);

/** Money in the company's market's words: "Rs 1,240 crore" or "$312 million". */
export const money = (r: Rng, c: Company) =>
  isIndian(c)
    ? `Rs ${thousands(between(r, 120, 9800))} crore`
    : `$${thousands(between(r, 40, 4200))} million`;

const quote = (r: Rng, text: string) =>
  `"${text}," said ${pick(r, ANALYSTS)}, an analyst at ${pick(r, BROKERS)}.`;

const ofSector = (r: Rng, sectors: Sector[]) => {
  const pool = [...INDIAN_COMPANIES, ...US_COMPANIES].filter((c) => sectors.includes(c.sector));
  return pick(r, pool.length ? pool : INDIAN_COMPANIES);
};
const anyCompany = (r: Rng) => pick(r, r() < 0.55 ? INDIAN_COMPANIES : US_COMPANIES);

/** Company news: results, deals, guidance, capital actions. */
function companyNews(r: Rng, unix: number): Piece {
  const c = anyCompany(r);
  const [driver, second] = SECTOR_DRIVERS[c.sector];
  const pct = between(r, 3, 48);
  const q = between(r, 1, 4);
  const amount = money(r, c);
  const variants: Array<() => [string, string, string[]]> = [
    () => [
      `${c.name} Q${q} net profit rises ${pct}% to ${amount}`,
      `${c.short} reported a ${pct}% rise in quarterly net profit to ${amount}, helped by better ${driver}.`,
      ['Earnings', c.sector],
    ],
    () => [
      `${c.short} shares fall ${decimal(r, 2, 11)}% as ${driver} disappoints`,
      `Shares of ${c.name} fell after the company said ${driver} would stay weak for another two quarters.`,
      ['Markets', c.sector],
    ],
    () => [
      `${c.name} board approves share buyback of up to ${amount}`,
      `The board of ${c.name} approved a buyback of up to ${amount} through the tender offer route.`,
      ['Corporate Action', c.sector],
    ],
    () => [
      `${c.short} raises full-year guidance on strong ${driver}`,
      `${c.name} lifted its full-year outlook, citing stronger ${driver} and steady ${second}.`,
      ['Guidance', c.sector],
    ],
    () => [
      `${c.short} to acquire rival unit for ${amount}`,
      `${c.name} agreed to buy a competitor's ${c.sector} business for ${amount} in cash.`,
      ['Mergers & Acquisitions', c.sector],
    ],
    () => [
      `${c.name} raises ${amount} through qualified institutional placement`,
      `${c.short} raised ${amount} from institutional investors to fund capacity expansion and repay debt.`,
      ['Fundraising', c.sector],
    ],
  ];
  const [title, lead, categories] = pick(r, variants)();
  return {
    title,
    company: c,
    categories,
    paragraphs: [
      lead,
      `Analysts had expected ${second} to improve by ${between(r, 50, 400)} basis points. ${quote(r, `The quality of ${driver} matters more than the headline number this quarter`)}`,
      `The stock has ${r() < 0.5 ? 'gained' : 'lost'} ${between(r, 2, 35)}% this year, while the benchmark index moved ${between(r, 1, 14)}%. Management will host an investor call on ${MONTHS[(monthOf(unix) + 1) % 12]} ${between(r, 1, 28)}.`,
    ],
  };
}

/** Macro news: central banks, inflation, growth, currencies, commodities. */
function macroNews(r: Rng, unix: number): Piece {
  // Data is published for the month before.
  const month = MONTHS[(monthOf(unix) + 11) % 12];
  const variants: Array<() => [string, string, string[]]> = [
    () => [
      `RBI holds repo rate at ${pick(r, ['6.50', '6.25', '6.00'])}%, keeps a cautious stance`,
      `The Monetary Policy Committee voted ${between(r, 4, 6)}-${between(r, 0, 2)} to leave the policy rate unchanged, citing sticky food prices.`,
      ['Monetary Policy', 'Interest Rates'],
    ],
    () => [
      `Fed leaves rates unchanged; signals ${between(r, 1, 3)} cuts this year`,
      `The Federal Open Market Committee kept the federal funds target range steady and said further progress on inflation was needed.`,
      ['Monetary Policy', 'Interest Rates'],
    ],
    () => [
      `India's retail inflation eases to ${decimal(r, 3.1, 6.2)}% in ${month}`,
      `Consumer price inflation slowed as vegetable prices cooled, while core inflation held near ${decimal(r, 3.2, 4.4)}%.`,
      ['Inflation', 'Economy'],
    ],
    () => [
      `US payrolls rise by ${between(r, 90, 310)},000 in ${month}; unemployment at ${decimal(r, 3.6, 4.4)}%`,
      `Hiring was led by healthcare and government, and average hourly earnings rose ${decimal(r, 3.4, 4.6)}% from a year earlier.`,
      ['Employment', 'Economy'],
    ],
    () => [
      `Rupee slips to ${decimal(r, 82.5, 87.9, 2)} per dollar on foreign outflows`,
      `The rupee weakened as foreign portfolio investors sold local equities and importers bought dollars.`,
      ['Currencies', 'Markets'],
    ],
    () => [
      `Brent crude rises ${decimal(r, 1, 4)}% after OPEC+ extends output cuts`,
      `Oil prices climbed after producers said voluntary cuts would run for another quarter.`,
      ['Commodities', 'Energy'],
    ],
    () => [
      `India's GDP grows ${decimal(r, 5.4, 8.4)}% in the quarter, led by manufacturing`,
      `Gross domestic product beat estimates as manufacturing and construction grew faster than services.`,
      ['Growth', 'Economy'],
    ],
    () => [
      `10-year bond yield climbs to ${decimal(r, 3.9, 7.4, 2)}% as supply weighs`,
      `Government bond yields rose after a larger-than-expected borrowing calendar.`,
      ['Bonds', 'Interest Rates'],
    ],
  ];
  const [title, lead, categories] = pick(r, variants)();
  return {
    title,
    company: null,
    categories,
    paragraphs: [
      lead,
      quote(r, 'Policy makers want to see a few more months of data before they change course'),
      `Markets now price ${between(r, 25, 75)} basis points of easing over the next twelve months; equities ${r() < 0.5 ? 'rose' : 'slipped'} ${decimal(r, 0.2, 1.8)}% on the day.`,
    ],
  };
}

/** Sector news for the technology, healthcare, law and media desks. */
function sectorNews(r: Rng, topic: string): Piece {
  const sectors: Record<string, Sector[]> = {
    technology: ['IT Services', 'Semiconductors', 'Telecom'],
    healthcare: ['Pharmaceuticals', 'Insurance'],
    media: ['Media', 'Telecom'],
    law: ['Banking', 'Insurance', 'Infrastructure'],
  };
  const c = ofSector(r, sectors[topic] ?? ['Banking']);
  const amount = money(r, c);
  const by: Record<string, Array<() => [string, string, string[]]>> = {
    technology: [
      () => [
        `${c.short} wins ${amount} multi-year cloud deal`,
        `${c.name} signed a multi-year contract to move a European lender's core systems to the cloud.`,
        ['Technology', 'Deals'],
      ],
      () => [
        `${c.short} unveils AI accelerator for data-centre inference`,
        `${c.name} launched a chip aimed at running large language models at lower power.`,
        ['Technology', 'Artificial Intelligence'],
      ],
    ],
    healthcare: [
      () => [
        `${c.short} gets USFDA approval for generic heart drug`,
        `${c.name} received final approval to market a generic version of a cardiovascular drug in the US.`,
        ['Healthcare', 'Regulation'],
      ],
      () => [
        `${c.short} reports positive phase 3 data for diabetes therapy`,
        `${c.name} said its late-stage trial met its primary endpoint with a clean safety profile.`,
        ['Healthcare', 'Clinical Trials'],
      ],
    ],
    media: [
      () => [
        `${c.short} bags streaming rights for cricket league for ${amount}`,
        `${c.name} won five-year digital rights in an auction that drew four bidders.`,
        ['Media', 'Sports Rights'],
      ],
      () => [
        `Advertising spend to grow ${between(r, 6, 14)}% this year, says ${c.short}`,
        `${c.name} expects digital formats to take more than half of advertising budgets.`,
        ['Media', 'Advertising'],
      ],
    ],
    law: [
      () => [
        `Regulator tightens disclosure rules for related-party deals`,
        `Listed companies must seek shareholder approval for material related-party transactions above a new threshold.`,
        ['Regulation', 'Corporate Governance'],
      ],
      () => [
        `Tribunal stays tax demand against ${c.short}`,
        `${c.name} won an interim stay on a tax demand of ${amount} pending a full hearing.`,
        ['Legal', 'Taxation'],
      ],
    ],
  };
  const [title, lead, categories] = pick(r, by[topic] ?? by.law)();
  return {
    title,
    company: c,
    categories,
    paragraphs: [
      lead,
      quote(r, `This changes the outlook for ${c.sector} companies over the next year`),
      `${c.short} shares ${r() < 0.5 ? 'rose' : 'fell'} ${decimal(r, 0.5, 6)}% in early trade.`,
    ],
  };
}

/** News for a desk's topic; finance desks mix company and macro news. */
export function newsPiece(r: Rng, topic: string | null, unix: number): Piece {
  if (topic === 'economics') return r() < 0.8 ? macroNews(r, unix) : companyNews(r, unix);
  if (topic && topic !== 'finance') {
    return r() < 0.75 ? sectorNews(r, topic) : companyNews(r, unix);
  }
  return r() < 0.7 ? companyNews(r, unix) : macroNews(r, unix);
}

export const RESEARCH_CATEGORIES = [
  'Initiating Coverage',
  'Results Review',
  'Company Update',
  'Sector Report',
] as const;
const RATINGS = ['Buy', 'Add', 'Hold', 'Reduce', 'Sell'];

/** A broker's research note: a rating, a target and the reasoning. */
export function researchPiece(r: Rng): Piece & { category: string; rating: string } {
  const c = anyCompany(r);
  const [driver, second] = SECTOR_DRIVERS[c.sector];
  const category = pick(r, RESEARCH_CATEGORIES);
  const rating = pick(r, RATINGS);
  const target = `${isIndian(c) ? 'Rs ' : '$'}${between(r, 80, 4200)}`;
  const title =
    category === 'Sector Report'
      ? `${c.sector}: ${driver} to drive the next leg; ${c.short} top pick`
      : category === 'Initiating Coverage'
        ? `Initiating coverage on ${c.name} with ${rating}, target ${target}`
        : `${c.name}: ${driver} ${r() < 0.5 ? 'beats' : 'misses'} estimates; ${rating}, target ${target}`;
  return {
    title,
    company: c,
    category,
    rating,
    categories: ['Research', c.sector],
    paragraphs: [
      `We ${category === 'Initiating Coverage' ? 'initiate' : 'maintain'} a ${rating} rating on ${c.name} with a twelve-month target of ${target}, ${between(r, 5, 40)}% ${rating === 'Sell' || rating === 'Reduce' ? 'below' : 'above'} the current price.`,
      `Our thesis rests on ${driver} and ${second}: we model ${between(r, 8, 24)}% earnings growth a year over the next three years.`,
      `Risks: a slowdown in ${second}, adverse regulation and a sharper-than-expected rise in costs. Analyst: ${pick(r, ANALYSTS)}, ${pick(r, BROKERS)}.`,
    ],
  };
}
