import type { CategoryTab, Market } from '../../contract/documents';
import { INDIAN_COMPANIES, NZ_COMPANIES, US_COMPANIES, type Company } from './corpus-data';
import {
  between,
  decimal,
  newsPiece,
  pick,
  researchPiece,
  rngOf,
  thousands,
  type Piece,
  type Rng,
} from './corpus-text';
import type { IncomingDocument } from '../documents';

/**
 * The demo corpus: realistic news, filings (Indian, US and NZ, with company names, security
 * codes and filing categories) and research notes about made-up companies, written from a
 * seeded random stream: the same options always give the same documents. The demo seed uses a
 * few hundred; the benchmarks stream millions through `corpusItems` without holding them.
 */

export type CorpusSource = {
  id: string;
  category_tab: CategoryTab;
  market: Market | null;
  /** The desk's topic (economics, technology...) for news sources. */
  topic?: string | null;
};

export type CorpusOptions = {
  seed: number;
  count: number;
  /** The newest document is published just before this (ms). */
  now: number;
  sources: readonly CorpusSource[];
  /** Documents are spread over this many days before `now` (default 30). */
  spanDays?: number;
};

type Filing = { category: string; secondary: string[] };

const INDIAN_FILINGS: Filing[] = [
  {
    category: 'Board Meeting',
    secondary: ['Outcome of Board Meeting', 'Intimation of Board Meeting'],
  },
  {
    category: 'Financial Results',
    secondary: ['Integrated Filing (Financial)', 'Quarterly Results'],
  },
  {
    category: 'Annual Report',
    secondary: ['Annual Report', 'Business Responsibility and Sustainability Report'],
  },
  { category: 'Shareholding Pattern', secondary: ['Quarterly'] },
  { category: 'Credit Rating', secondary: ['Rating Reaffirmed', 'Rating Upgrade'] },
  { category: 'Investor Presentation', secondary: ['Analysts/Institutional Investor Meet'] },
  { category: 'Dividend', secondary: ['Record Date', 'Interim Dividend'] },
  {
    category: 'Change in Management',
    secondary: ['Appointment of Director', 'Resignation of Chief Financial Officer'],
  },
  { category: 'Earnings Call Transcript', secondary: ['Transcript'] },
];

const US_FILINGS: Filing[] = [
  { category: '10-K', secondary: ['Annual report'] },
  { category: '10-Q', secondary: ['Quarterly report'] },
  {
    category: '8-K',
    secondary: [
      'Item 2.02 Results of Operations and Financial Condition',
      'Item 5.02 Departure of Directors or Certain Officers',
      'Item 1.01 Entry into a Material Definitive Agreement',
    ],
  },
  { category: 'DEF 14A', secondary: ['Definitive proxy statement'] },
  { category: 'Form 4', secondary: ['Statement of changes in beneficial ownership'] },
  { category: 'SC 13G/A', secondary: ['Amended beneficial ownership report'] },
];

const NZ_FILINGS: Filing[] = [
  { category: 'Half Year Results', secondary: ['Interim Report'] },
  { category: 'Market Update', secondary: ['Trading Update'] },
  { category: 'Director Appointment', secondary: ['Governance'] },
];

/** "a Form 10-Q", but "Form 4" as filers name it. */
const formName = (category: string) =>
  category.startsWith('Form ') ? category : `a Form ${category}`;
/** US forms that report a period's results. */
const REPORTS_RESULTS = new Set(['10-K', '10-Q', '8-K']);
const QUARTERS = ['first', 'second', 'third', 'fourth'] as const;

const day = (unix: number) => {
  const d = new Date(unix * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
};

/** A filing in its exchange's or regulator's style. */
function filingPiece(
  r: Rng,
  market: Market,
  unix: number,
): Piece & { filing: Filing; secondary: string } {
  const companies: readonly Company[] =
    market === 'india_capital_markets'
      ? INDIAN_COMPANIES
      : market === 'us_capital_markets'
        ? US_COMPANIES
        : NZ_COMPANIES;
  const filings =
    market === 'india_capital_markets'
      ? INDIAN_FILINGS
      : market === 'us_capital_markets'
        ? US_FILINGS
        : NZ_FILINGS;
  const c = pick(r, companies);
  const filing = pick(r, filings);
  const secondary = pick(r, filing.secondary);
  const q = between(r, 1, 4);
  if (market === 'us_capital_markets') {
    return {
      title: `${filing.category} - ${c.name} (${c.id}) (Filer)`,
      company: c,
      filing,
      secondary,
      categories: [filing.category],
      paragraphs: [
        `${c.name} (${c.code}) filed ${formName(filing.category)}: ${secondary}.`,
        `Filed ${day(unix)}. Period of report: the ${QUARTERS[q - 1]} quarter. Accession number ${c.id}-${between(r, 10, 25)}-${String(between(r, 1, 999999)).padStart(6, '0')}.`,
        // Drawn for every form (the corpus stays the same document for document), said only by
        // the forms that report results.
        ...[
          `Revenue for the period was $${thousands(between(r, 120, 9800))} million, ${r() < 0.6 ? 'up' : 'down'} ${decimal(r, 1, 22)}% from a year earlier; diluted earnings per share were $${decimal(r, 0.1, 6.5, 2)}.`,
        ].filter(() => REPORTS_RESULTS.has(filing.category)),
      ],
    };
  }
  return {
    title: `${c.name} - ${secondary}`,
    company: c,
    filing,
    secondary,
    categories: [filing.category],
    paragraphs: [
      `${c.name} (${market === 'india_capital_markets' ? `scrip code ${c.code}, ` : ''}symbol ${c.id}) has informed the exchange about ${secondary.toLowerCase()} dated ${day(unix)}.`,
      indianDisclosure(r, filing.category, q),
      `This intimation is also available on the company's website. For ${c.name}, Company Secretary and Compliance Officer.`,
    ],
  };
}

/** What an Indian filing discloses, in the words such filings use. */
function indianDisclosure(r: Rng, category: string, q: number): string {
  switch (category) {
    case 'Financial Results':
    case 'Board Meeting':
      return `The board approved the unaudited financial results for the ${QUARTERS[q - 1]} quarter: revenue from operations ${r() < 0.6 ? 'rose' : 'fell'} ${decimal(r, 1, 28)}% year on year and net profit was Rs ${thousands(between(r, 40, 6800))} crore.`;
    case 'Dividend':
      return `The board declared an interim dividend of Rs ${decimal(r, 1, 24, 2)} per equity share of face value Rs ${pick(r, ['1', '2', '10'])}; the record date is fixed accordingly.`;
    case 'Credit Rating':
      return `${pick(r, ['CRISIL', 'ICRA', 'CARE Ratings', 'India Ratings'])} has ${r() < 0.6 ? 'reaffirmed' : 'upgraded'} the long-term rating on the company's bank facilities at ${pick(r, ['AA+', 'AA', 'AA-', 'A+'])} with a stable outlook.`;
    case 'Shareholding Pattern':
      return `Promoter holding stood at ${decimal(r, 35, 74, 2)}%, foreign portfolio investors held ${decimal(r, 4, 28, 2)}% and mutual funds ${decimal(r, 3, 19, 2)}% at the end of the ${QUARTERS[q - 1]} quarter.`;
    case 'Change in Management':
      return `The board approved the change with effect from the close of business; the nomination and remuneration committee recommended the appointment.`;
    default:
      return `Pursuant to Regulation 30 of the SEBI (Listing Obligations and Disclosure Requirements) Regulations, 2015, the ${category.toLowerCase()} for the ${QUARTERS[q - 1]} quarter is enclosed.`;
  }
}

const escape = (s: string) =>
  /[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s;

/** One document of a source, the i-th of the corpus. */
function documentFor(
  r: Rng,
  source: CorpusSource,
  i: number,
  unix: number,
  seed: number,
): IncomingDocument {
  let piece: Piece;
  let category: string | null = null;
  let secondary: string | null = null;
  if (source.category_tab === 'exchanges') {
    const f = filingPiece(r, source.market ?? 'us_capital_markets', unix);
    piece = f;
    category = f.filing.category;
    secondary = f.secondary;
  } else if (source.category_tab === 'research') {
    const note = researchPiece(r);
    piece = note;
    category = note.category;
    secondary = note.rating;
  } else {
    piece = newsPiece(r, source.topic ?? null, unix);
  }
  const { paragraphs, company } = piece;
  let html = '';
  for (const p of paragraphs) html += `<p>${escape(p)}</p>`;
  const typed = company !== null && source.category_tab !== 'rss_news';
  return {
    dedupe_key: `corpus:${seed}:${i}`,
    url: null,
    unix,
    thumbnail: null,
    title: piece.title,
    text: paragraphs.join('\n\n'),
    html,
    company_name: company?.name ?? null,
    security_code: typed ? company.code || null : null,
    security_id: typed ? company.id : null,
    categories: piece.categories,
    category,
    secondary_category: secondary,
  };
}

/**
 * The corpus one document at a time: the i-th goes to source i mod n, published newest first
 * across `spanDays` before `now`.
 */
export function* corpusItems(
  opts: CorpusOptions,
): Generator<{ sourceId: string; item: IncomingDocument }> {
  if (opts.sources.length === 0) return;
  const r = rngOf(opts.seed);
  const nowS = Math.floor(opts.now / 1000);
  const span = (opts.spanDays ?? 30) * 86_400;
  for (let i = 0; i < opts.count; i++) {
    const source = opts.sources[i % opts.sources.length];
    const unix = nowS - 60 - Math.floor((span * i) / Math.max(1, opts.count)) - between(r, 0, 600);
    yield { sourceId: source.id, item: documentFor(r, source, i, unix, opts.seed) };
  }
}

/** The corpus as IncomingDocument[] per source id. */
export function generateCorpus(opts: CorpusOptions): Map<string, IncomingDocument[]> {
  const out = new Map<string, IncomingDocument[]>(opts.sources.map((s) => [s.id, []]));
  for (const { sourceId, item } of corpusItems(opts)) out.get(sourceId)!.push(item);
  return out;
}
