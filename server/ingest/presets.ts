import type { Market } from '../../contract/documents';
import { regulatoryGroup } from '../../contract/source-catalogue';

/**
 * The catalogue's filings presets (000 §3 regulatory keys): each points at a real public feed
 * of its exchange or regulator and names the parser that turns an answer into typed cards
 * (filings/). CONTENT's catalogue lists them as public sources (sources.url = `url`).
 *
 * The parsers were written from the public formats of these feeds as documented and as the
 * feeds were known to answer, NOT from responses recorded live (this machine has no internet);
 * the fixtures in tests/fixtures/filings/ follow the same formats. Where a regulator publishes
 * no machine-readable feed, the preset reads its news page as a website (feed discovery, else
 * readable text) and says so below.
 *
 * `url` may hold `{from}` and `{to}` (dates as YYYYMMDD in the exchange's time zone): the
 * runner fills them in at fetch time (expandPresetUrl), so a date-windowed API asks for today.
 */
export type FilingsParser =
  /** SEC EDGAR Atom: the "getcurrent" latest-filings feed and the company browse feed. */
  | 'sec_edgar'
  /** BSE corporate announcements JSON (api.bseindia.com AnnSubCategoryGetData). */
  | 'bse_announcements'
  /** SEBI's RSS (circulars, orders, press releases...). */
  | 'sebi_rss'
  /** NZX market announcements feed (RSS). */
  | 'nzx_announcements'
  /** Any RSS/Atom feed, filed as this market's filings without company fields. */
  | 'feed'
  /** A web page: its discovered feed, else its readable text. */
  | 'website';

export type FilingsPreset = {
  key: string;
  market: Market;
  url: string;
  /** The human page of the source (site_url). */
  siteUrl: string;
  parser: FilingsParser;
  /** Headers the publisher expects beyond ours (BSE answers only its own site's referer). */
  headers?: Record<string, string>;
  /** Time zone offset of `{from}`/`{to}`, minutes east of UTC. */
  utcOffsetMinutes?: number;
  /** How often it is polled. */
  pollMinutes: number;
};

const SEC_CURRENT =
  'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&company=&dateb=&owner=include&start=0&count=100&output=atom';

const BSE_API = 'https://api.bseindia.com/BseIndiaAPI/api/AnnSubCategoryGetData/w';
const bse = (category: string, subcategory: string) =>
  `${BSE_API}?pageno=1&strCat=${encodeURIComponent(category)}&strPrevDate={from}&strScrip=` +
  `&strSearch=P&strToDate={to}&strType=C&subcategory=${encodeURIComponent(subcategory)}`;
const BSE_HEADERS = { Referer: 'https://www.bseindia.com/', Origin: 'https://www.bseindia.com' };
const IST = 330;

const market = (key: string): Market => {
  const group = regulatoryGroup(key);
  if (!group) throw new Error(`filings preset ${key} is not a regulatory key`);
  return group;
};

const preset = (p: Omit<FilingsPreset, 'market'>): FilingsPreset => ({
  ...p,
  market: market(p.key),
});

export const FILINGS_PRESETS: readonly FilingsPreset[] = [
  // US Capital Markets
  preset({
    key: 'sec',
    url: `${SEC_CURRENT}&type=`,
    siteUrl: 'https://www.sec.gov/edgar/search/',
    parser: 'sec_edgar',
    pollMinutes: 10,
  }),
  // Earnings releases reach EDGAR as 8-K filings (Item 2.02); transcripts have no public feed.
  preset({
    key: 'us_earnings_calls',
    url: `${SEC_CURRENT}&type=8-K`,
    siteUrl: 'https://www.sec.gov/edgar/search/',
    parser: 'sec_edgar',
    pollMinutes: 15,
  }),
  preset({
    key: 'fasb',
    url: 'https://www.fasb.org/news-and-meetings/in-the-news',
    siteUrl: 'https://www.fasb.org/',
    parser: 'website',
    pollMinutes: 60,
  }),
  preset({
    key: 'pcaob',
    url: 'https://pcaobus.org/news-events/news-releases',
    siteUrl: 'https://pcaobus.org/',
    parser: 'website',
    pollMinutes: 60,
  }),
  preset({
    key: 'fred',
    url: 'https://fredblog.stlouisfed.org/feed/',
    siteUrl: 'https://fred.stlouisfed.org/',
    parser: 'feed',
    pollMinutes: 60,
  }),
  // Indian Capital Markets
  preset({
    key: 'bse_filings',
    url: bse('-1', '-1'),
    siteUrl: 'https://www.bseindia.com/corporates/ann.html',
    parser: 'bse_announcements',
    headers: BSE_HEADERS,
    utcOffsetMinutes: IST,
    pollMinutes: 5,
  }),
  preset({
    key: 'bse_annual_reports',
    url: bse('Company Update', 'Annual Report'),
    siteUrl: 'https://www.bseindia.com/corporates/ann.html',
    parser: 'bse_announcements',
    headers: BSE_HEADERS,
    utcOffsetMinutes: IST,
    pollMinutes: 30,
  }),
  preset({
    key: 'bse_presentations',
    url: bse('Company Update', 'Investor Presentation'),
    siteUrl: 'https://www.bseindia.com/corporates/ann.html',
    parser: 'bse_announcements',
    headers: BSE_HEADERS,
    utcOffsetMinutes: IST,
    pollMinutes: 30,
  }),
  preset({
    key: 'india_earnings_call_transcripts',
    url: bse('Company Update', 'Earnings Call Transcript'),
    siteUrl: 'https://www.bseindia.com/corporates/ann.html',
    parser: 'bse_announcements',
    headers: BSE_HEADERS,
    utcOffsetMinutes: IST,
    pollMinutes: 30,
  }),
  preset({
    key: 'system_driven_disclosures_sast',
    url: bse('Insider Trading / SAST', '-1'),
    siteUrl: 'https://www.bseindia.com/corporates/ann.html',
    parser: 'bse_announcements',
    headers: BSE_HEADERS,
    utcOffsetMinutes: IST,
    pollMinutes: 30,
  }),
  preset({
    key: 'sebi',
    url: 'https://www.sebi.gov.in/sebirss.xml',
    siteUrl: 'https://www.sebi.gov.in/',
    parser: 'sebi_rss',
    pollMinutes: 30,
  }),
  preset({
    key: 'crisil',
    url: 'https://www.crisil.com/en/home/newsroom/press-releases.html',
    siteUrl: 'https://www.crisil.com/',
    parser: 'website',
    pollMinutes: 60,
  }),
  // New Zealand
  preset({
    key: 'nzx_filings',
    url: 'https://www.nzx.com/markets/NZSX/announcements.rss',
    siteUrl: 'https://www.nzx.com/markets/NZSX/announcements',
    parser: 'nzx_announcements',
    pollMinutes: 10,
  }),
];

const byKey = new Map(FILINGS_PRESETS.map((p) => [p.key, p]));

/** The preset of a catalogue key, or undefined. */
export const filingsPreset = (key: string): FilingsPreset | undefined => byKey.get(key);

const ymd = (ms: number, offsetMinutes: number) =>
  new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10).replaceAll('-', '');

/** Fills `{from}` (yesterday, so late filings are not missed) and `{to}` (today). */
export const expandPresetUrl = (url: string, now: number, utcOffsetMinutes = 0): string =>
  url
    .replaceAll('{from}', ymd(now - 86_400_000, utcOffsetMinutes))
    .replaceAll('{to}', ymd(now, utcOffsetMinutes));
