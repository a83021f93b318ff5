import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseBseAnnouncements,
  parseNzxAnnouncements,
  parseSebiRss,
  parseSecEdgar,
} from '../../server/ingest/filings';
import { expandPresetUrl, FILINGS_PRESETS, filingsPreset } from '../../server/ingest/presets';
import { readSource } from '../../server/ingest/read';
import { fixture, startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/**
 * Each filings fixture (tests/fixtures/filings, written from the public formats) becomes typed
 * cards: company, security code and id, category, secondary category, market, exchanges tab.
 */

const card = (d: Record<string, unknown>) => ({
  company_name: d.company_name,
  security_code: d.security_code,
  security_id: d.security_id,
  category: d.category,
  secondary_category: d.secondary_category,
  market: d.market,
  category_tab: d.category_tab,
});

describe('filings parsers', () => {
  it('SEC EDGAR latest filings: one card per company named, form type as category', () => {
    const docs = parseSecEdgar(
      fixture('filings/sec-getcurrent.atom').toString('latin1'),
      'https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent',
      'us_capital_markets',
    );
    expect(docs.map(card)).toEqual([
      {
        company_name: 'MICROSOFT CORP',
        security_code: '0000789019',
        security_id: null,
        category: '8-K',
        secondary_category: 'Current report',
        market: 'us_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'Cook Timothy D',
        security_code: '0001214156',
        security_id: null,
        category: '4',
        secondary_category: 'Statement of changes in beneficial ownership',
        market: 'us_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'Apple Inc.',
        security_code: '0000320193',
        security_id: null,
        category: '4',
        secondary_category: 'Statement of changes in beneficial ownership',
        market: 'us_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'TESLA, INC.',
        security_code: '0001318605',
        security_id: null,
        category: '10-K',
        secondary_category: 'Annual report',
        market: 'us_capital_markets',
        category_tab: 'exchanges',
      },
    ]);
    expect(docs[0].title).toBe('8-K - MICROSOFT CORP: Current report');
    expect(docs[0].url).toBe(
      'https://www.sec.gov/Archives/edgar/data/789019/000119312525043210/0001193125-25-043210-index.htm',
    );
    expect(docs[0].unix).toBe(Date.parse('2025-03-03T09:58:31-05:00') / 1000);
    expect(docs[0].text).toBe('Filed: 2025-03-03 AccNo: 0001193125-25-043210 Size: 312 KB');
  });

  it('SEC EDGAR company feed: the company from company-info, the form name per filing', () => {
    const docs = parseSecEdgar(
      fixture('filings/sec-company.atom').toString('latin1'),
      'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193',
      'us_capital_markets',
    );
    expect(docs.map((d) => [d.title, d.company_name, d.security_code, d.category])).toEqual([
      [
        '10-K - Apple Inc.: Annual report [Section 13 and 15(d)], not S-K Item 405',
        'Apple Inc.',
        '0000320193',
        '10-K',
      ],
      [
        '10-Q - Apple Inc.: Quarterly report [Sections 13 or 15(d)]',
        'Apple Inc.',
        '0000320193',
        '10-Q',
      ],
    ]);
    expect(docs[0].dedupe_key).toBe('0000320193-24-000123:0000320193');
  });

  it('BSE announcements: scrip code and id, category and sub-category, the PDF', () => {
    const docs = parseBseAnnouncements(
      fixture('filings/bse-announcements.json').toString(),
      'india_capital_markets',
    );
    expect(docs.map(card)).toEqual([
      {
        company_name: 'Reliance Industries Ltd',
        security_code: '500325',
        security_id: 'RELIANCE',
        category: 'Company Update',
        secondary_category: 'Press Release / Media Release',
        market: 'india_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'Tata Consultancy Services Ltd',
        security_code: '532540',
        security_id: 'TCS',
        category: 'Board Meeting',
        secondary_category: 'Board Meeting Intimation',
        market: 'india_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'HDFC Bank Ltd',
        security_code: '500180',
        security_id: 'HDFCBANK',
        category: 'Company Update',
        secondary_category: 'Earnings Call Transcript',
        market: 'india_capital_markets',
        category_tab: 'exchanges',
      },
    ]);
    expect(docs[0].title).toBe(
      'Announcement under Regulation 30 (LODR)-Press Release / Media Release',
    );
    expect(docs[0].url).toBe(
      'https://www.bseindia.com/xml-data/corpfiling/AttachLive/4f1b8a2c-1e2d-4c3b-9d8e-7a6b5c4d3e2f.pdf',
    );
    expect(docs[2].url).toBe(
      'https://www.bseindia.com/xml-data/corpfiling/AttachHis/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.pdf',
    );
    // India time without an offset in the answer: 15:42:11 IST is 10:12:11 UTC.
    expect(docs[0].unix).toBe(Date.parse('2025-03-03T10:12:11Z') / 1000);
    expect(docs[0].mime_type).toBe('application/pdf');
  });

  it('BSE: an answer that is not JSON is a clear error', () => {
    expect(() => parseBseAnnouncements('<html>blocked</html>', 'india_capital_markets')).toThrow(
      'the BSE answer is not valid JSON',
    );
  });

  it('SEBI RSS: section as category, company from the title, its own date format', () => {
    const docs = parseSebiRss(
      fixture('filings/sebi-rss.xml').toString(),
      'https://www.sebi.gov.in/sebirss.xml',
      'india_capital_markets',
    );
    expect(docs.map((d) => [d.category, d.secondary_category, d.company_name])).toEqual([
      ['Circulars', null, null],
      ['Orders', 'Adjudication order', 'Sunrise Agro Industries Limited'],
      ['Press Releases', null, null],
      ['Public Issues', null, 'Northwind Fintech Limited'],
    ]);
    // "03 Mar, 2025 +0530" is midnight in India.
    expect(docs[0].unix).toBe(Date.parse('2025-03-02T18:30:00Z') / 1000);
    expect(docs.every((d) => d.market === 'india_capital_markets')).toBe(true);
  });

  it('NZX announcements: ticker, issuer and announcement type', () => {
    const docs = parseNzxAnnouncements(
      fixture('filings/nzx-announcements.rss').toString(),
      'https://www.nzx.com/markets/NZSX/announcements.rss',
      'nz_capital_markets',
    );
    expect(docs.map(card)).toEqual([
      {
        company_name: 'Air New Zealand Limited',
        security_code: 'AIR',
        security_id: 'AIR',
        category: 'Market Update',
        secondary_category: 'MKTUPDTE',
        market: 'nz_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'Fisher & Paykel Healthcare Corporation Limited',
        security_code: 'FPH',
        security_id: 'FPH',
        category: 'Half Year Results',
        secondary_category: 'HALFYR',
        market: 'nz_capital_markets',
        category_tab: 'exchanges',
      },
      {
        company_name: 'Spark New Zealand Limited',
        security_code: 'SPK',
        security_id: 'SPK',
        category: 'General',
        secondary_category: 'GENERAL',
        market: 'nz_capital_markets',
        category_tab: 'exchanges',
      },
    ]);
    expect(docs[0].title).toBe('Monthly Operating Statistics - February 2025');
    expect(docs[0].url).toBe('https://www.nzx.com/announcements/446123');
    expect(docs[0].dedupe_key).toBe('446123');
  });
});

describe('filings presets', () => {
  it('cover the regulatory keys of the catalogue, each on a real public https address', () => {
    expect(FILINGS_PRESETS.map((p) => p.key).sort()).toEqual(
      [
        'bse_annual_reports',
        'bse_filings',
        'bse_presentations',
        'crisil',
        'fasb',
        'fred',
        'india_earnings_call_transcripts',
        'nzx_filings',
        'pcaob',
        'sebi',
        'sec',
        'system_driven_disclosures_sast',
        'us_earnings_calls',
      ].sort(),
    );
    for (const p of FILINGS_PRESETS) expect(new URL(p.url).protocol).toBe('https:');
    expect(filingsPreset('sec')?.url).toContain('https://www.sec.gov/cgi-bin/browse-edgar');
    expect(filingsPreset('sebi')?.url).toBe('https://www.sebi.gov.in/sebirss.xml');
  });

  it("fill BSE's date window in India time", () => {
    // 20:00 UTC on 3 March is 01:30 on 4 March in India.
    const url = expandPresetUrl(
      filingsPreset('bse_filings')!.url,
      Date.parse('2025-03-03T20:00:00Z'),
      330,
    );
    expect(url).toContain('strPrevDate=20250303');
    expect(url).toContain('strToDate=20250304');
  });
});

describe('reading a filings source', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());

  it("reads BSE's API with its date window and referer into exchange cards", async () => {
    server.set('/BseIndiaAPI/api/AnnSubCategoryGetData/w', {
      body: fixture('filings/bse-announcements.json'),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    const outcome = await readSource(
      {
        id: 's1',
        key: 'bse_filings',
        kind: 'filings',
        url: server.url(
          '/BseIndiaAPI/api/AnnSubCategoryGetData/w?strPrevDate={from}&strToDate={to}',
        ),
        site_url: null,
        category_tab: 'exchanges',
        market: 'india_capital_markets',
      },
      {
        now: Date.parse('2025-03-03T10:00:00Z'),
        etag: null,
        lastModified: null,
        fetch: { allowPrivate: true },
      },
    );
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    const items = [];
    for await (const batch of outcome.batches) items.push(...batch);
    expect(items.map((d) => d.company_name)).toEqual([
      'Reliance Industries Ltd',
      'Tata Consultancy Services Ltd',
      'HDFC Bank Ltd',
    ]);
    const request = server.requests.at(-1)!;
    expect(request.headers.referer).toBe('https://www.bseindia.com/');
  });
});
