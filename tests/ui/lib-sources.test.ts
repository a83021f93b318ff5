// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  SOURCE_GROUPS,
  regulatoryGroup,
  sourceFamilyKey,
  sourceGroupTitle,
  sourceTitle,
  titleFromKey,
} from '../../src/lib/sources';

describe('source catalogue (000 §3)', () => {
  it('groups the Indian regulators under "Indian Capital Markets"', () => {
    const india = [
      ['crisil', 'CRISIL'],
      ['bse_annual_reports', 'BSE Annual Reports'],
      ['bse_filings', 'BSE Filings'],
      ['bse_presentations', 'BSE Presentations'],
      ['india_earnings_call_transcripts', 'India Earnings Call Transcripts'],
      ['sebi', 'SEBI'],
      ['system_driven_disclosures_sast', 'System Driven Disclosures (SAST)'],
    ];
    expect(SOURCE_GROUPS.india_capital_markets.keys).toEqual(india.map(([key]) => key));
    for (const [key, title] of india) {
      expect(sourceTitle(key, 'needl')).toBe(title);
      expect(regulatoryGroup(key)).toBe('india_capital_markets');
      expect(sourceGroupTitle(key)).toBe('Indian Capital Markets');
    }
  });

  it('groups the US regulators under "US Capital Markets"', () => {
    const us = [
      ['sec', 'SEC'],
      ['fasb', 'FASB'],
      ['pcaob', 'PCAOB'],
      ['fred', 'FRED'],
      ['us_earnings_calls', 'US Earnings Calls'],
    ];
    expect(SOURCE_GROUPS.us_capital_markets.keys).toEqual(us.map(([key]) => key));
    for (const [key, title] of us) {
      expect(sourceTitle(key, 'needl')).toBe(title);
      expect(regulatoryGroup(key)).toBe('us_capital_markets');
      expect(sourceGroupTitle(key)).toBe('US Capital Markets');
    }
  });

  it('files NZX filings under nz_capital_markets', () => {
    expect(sourceTitle('nzx_filings', 'needl')).toBe('NZX Filings');
    expect(regulatoryGroup('nzx_filings')).toBe('nz_capital_markets');
  });

  it.each([
    ['slack', 'Slack'],
    ['gmail', 'Gmail'],
    ['google_drive', 'Google Drive'],
    ['notion', 'Notion'],
    ['zoom', 'Zoom'],
    ['chrome', 'Chrome'],
    ['google_calendar', 'Google Calendar'],
    ['google_contacts', 'Google Contacts'],
    ['podcasts', 'Podcasts'],
    ['linkedin', 'LinkedIn'],
    ['google_search', 'Google Search'],
    ['rss_news', 'News & Blogs'],
    ['education', 'Education'],
    ['economics', 'Economics'],
    ['finance', 'Finance'],
    ['healthcare', 'Healthcare'],
    ['law', 'Law'],
    ['media', 'Media'],
    ['technology', 'Technology'],
    ['clipped_reports', 'Clipped Reports'],
    ['home', 'My Data'],
    ['webclips', 'Web Clips'],
    ['socialmedia', 'Social Media'],
  ])('titles %s "%s"', (key, title) => {
    expect(sourceTitle(key, 'needl')).toBe(title);
    expect(regulatoryGroup(key)).toBeNull();
  });

  it('builds product titles from the product name', () => {
    expect(sourceTitle('needlweb', 'needl')).toBe('Needl Web');
    expect(sourceTitle('needlweb', 'acme')).toBe('Acme Web');
    expect(sourceTitle('acme_universe', 'acme')).toBe('Acme Web');
    expect(sourceTitle('needldrive', 'needl')).toBe('Needl Drive');
    expect(sourceTitle('needl_notebooks', 'needl')).toBe('Notebooks');
  });

  it('titles an unknown key from the key itself', () => {
    expect(sourceTitle('some_new.source', 'needl')).toBe('Some new source');
    expect(sourceTitle('abc', 'needl')).toBe('Abc');
    expect(sourceTitle('constructor', 'needl')).toBe('Constructor');
    expect(titleFromKey('a.b_c')).toBe('A b c');
    expect(titleFromKey('')).toBe('');
  });

  it('maps regulators to their family and needlweb to {product}_web', () => {
    expect(sourceFamilyKey('sebi', 'needl')).toBe('india_capital_markets');
    expect(sourceFamilyKey('fred', 'needl')).toBe('us_capital_markets');
    expect(sourceFamilyKey('nzx_filings', 'needl')).toBe('nz_capital_markets');
    expect(sourceFamilyKey('needlweb', 'acme')).toBe('acme_web');
    expect(sourceFamilyKey('slack', 'needl')).toBe('slack');
    expect(sourceGroupTitle('slack')).toBeNull();
  });
});
