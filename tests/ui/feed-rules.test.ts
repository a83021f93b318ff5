// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { CategoryTabInfo, ResultCard } from '../../contract/documents';
import {
  cardFields,
  cardText,
  cardThumbnail,
  originalLink,
  previewSearch,
  splitPills,
  textLines,
} from '../../src/features/documents/card-rules';
import { selectedTab, shownTabs } from '../../src/features/documents/feed-tabs';
import { feedViewOf } from '../../src/features/boards/feed-view';
import { helpLink } from '../../src/lib/help-links';
import { CHROMIUM_MAX_ELEMENT_PX, scrollScale } from '../../src/lists/scroll-scale';

const card = (patch: Partial<ResultCard> = {}): ResultCard => ({
  doc_id: 'd1',
  deeplink: 'd1',
  source: 'sec',
  source_id: 's1',
  label: 'SEC',
  category: 'exchanges_groups',
  category_tab: 'exchanges',
  market: 'us_capital_markets',
  unix: 1_700_000_000,
  title: 'Apple Inc. 10-K',
  link: 'https://www.sec.gov/doc',
  plain_text: 'text',
  thumbnail_location: null,
  mime_type: 'text/html',
  company_name: 'Apple Inc.',
  security_code: 'AAPL',
  security_id: null,
  secondary_category: 'Annual report',
  categories: ['10-K'],
  access_key: '',
  seq: 1,
  ...patch,
});

describe('card text (002 §9)', () => {
  it('an RSS item shows its snippet: 1000 characters, then "..."', () => {
    const text = cardText(card({ category: 'rss_news', plain_text: 'a'.repeat(1200) }));
    expect(text).toBe(`${'a'.repeat(1000)}...`);
  });

  it('a non-RSS document shows its first 100 words, then "..."', () => {
    const words = Array.from({ length: 150 }, (_, i) => `w${i + 1}`);
    const text = cardText(card({ plain_text: words.join(' ') }));
    expect(text.split(' ')).toHaveLength(100);
    expect(text.startsWith('w1 w2 w3')).toBe(true);
    expect(text.endsWith('w100...')).toBe(true);
  });

  it('short text is shown whole', () => {
    expect(cardText(card({ category: 'rss_news', plain_text: 'Rates held.' }))).toBe('Rates held.');
  });

  it('clamps to 3 lines, 1 on a phone', () => {
    expect(textLines(false)).toBe(3);
    expect(textLines(true)).toBe(1);
  });
});

describe('typed filing fields (002 §3)', () => {
  it('company, security code, category and secondary category, in that order', () => {
    expect(cardFields(card())).toEqual([
      { label: 'Company', value: 'Apple Inc.' },
      { label: 'Security code', value: 'AAPL' },
      { label: 'Category', value: '10-K' },
      { label: 'Secondary category', value: 'Annual report' },
    ]);
  });

  it('leaves out what is unknown, and a news item has no category field', () => {
    const news = card({
      category: 'rss_news',
      company_name: null,
      security_code: '',
      secondary_category: null,
      categories: ['Markets'],
    });
    expect(cardFields(news)).toEqual([]);
  });
});

describe('pill tags (002 §9)', () => {
  const tags = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
  it('5 on desktop, the rest in the overflow popup', () => {
    expect(splitPills(tags, false)).toEqual({
      shown: ['A', 'B', 'C', 'D', 'E'],
      overflow: ['F', 'G'],
    });
  });
  it('1 on a phone', () => {
    expect(splitPills(tags, true)).toEqual({
      shown: ['A'],
      overflow: ['B', 'C', 'D', 'E', 'F', 'G'],
    });
  });
  it('no overflow when they all fit; blanks and repeats dropped', () => {
    expect(splitPills(['A', ' ', 'A', 'B'], false)).toEqual({ shown: ['A', 'B'], overflow: [] });
  });
});

describe('images and links', () => {
  it('a thumbnail only from https (002 §5)', () => {
    expect(cardThumbnail(card({ thumbnail_location: 'https://cdn.example.com/a.png' }))).toBe(
      'https://cdn.example.com/a.png',
    );
    expect(cardThumbnail(card({ thumbnail_location: 'http://cdn.example.com/a.png' }))).toBeNull();
    expect(cardThumbnail(card({ thumbnail_location: 'data:image/png;base64,AAAA' }))).toBeNull();
  });

  it('"open original" only for http and https', () => {
    expect(originalLink('https://www.sec.gov/doc')).toBe('https://www.sec.gov/doc');
    expect(originalLink('http://example.com/a')).toBe('http://example.com/a');
    expect(originalLink('javascript:alert(1)')).toBeNull();
    expect(originalLink('data:text/html,hi')).toBeNull();
    expect(originalLink('/relative')).toBeNull();
    expect(originalLink(null)).toBeNull();
  });

  it('a card opens the preview overlay with its source, category, deeplink and tab (000 §2)', () => {
    expect(previewSearch(card({ access_key: 'k1' }), 'home')).toEqual({
      'overlay-type': 'preview',
      'overlay-source': 'sec',
      'overlay-category': 'exchanges_groups',
      'overlay-deeplink': 'd1',
      'overlay-category_tab': 'exchanges',
      'overlay-access_key': 'k1',
      'overlay-board_id': 'home',
    });
    expect(previewSearch(card(), 'home')).not.toHaveProperty('overlay-access_key');
  });
});

describe('scroll space for a 1M-row list (Chromium caps heights at 33,554,428 px)', () => {
  it('is the true height while it fits', () => {
    const scale = scrollScale({ count: 1000, rowHeight: 212, viewport: 800 });
    expect(scale.scaled).toBe(false);
    expect(scale.realHeight).toBe(212_000);
    expect(scale.toVirtual(5000)).toBe(5000);
  });

  it('is scaled below the cap past it, first row at the top and last at the bottom', () => {
    const scale = scrollScale({ count: 1_000_000, rowHeight: 212, viewport: 800 });
    expect(scale.scaled).toBe(true);
    expect(scale.virtualHeight).toBe(212_000_000);
    expect(scale.realHeight).toBeLessThan(CHROMIUM_MAX_ELEMENT_PX);
    expect(scale.toVirtual(0)).toBe(0);
    // Scrolled to the bottom, the view shows the true last screenful: the last row's end.
    const bottom = scale.realHeight - 800;
    expect(scale.toVirtual(bottom) + 800).toBeCloseTo(212_000_000, 3);
    expect(scale.toReal(scale.toVirtual(123_456))).toBeCloseTo(123_456, 6);
  });

  it('reaches every row: one scrolled pixel moves less than a screenful', () => {
    const scale = scrollScale({ count: 1_000_000, rowHeight: 212, viewport: 800 });
    expect(scale.toVirtual(1) - scale.toVirtual(0)).toBeLessThan(800 - 212);
  });
});

describe('category tabs (000 §3)', () => {
  const infos: CategoryTabInfo[] = [
    { key: 'today', label: 'Today', data: 4, icon: '' },
    { key: 'links', label: 'Links', data: 2, icon: '' },
    { key: 'media', label: 'Media', data: 1, icon: '' },
    { key: 'us_capital_markets', label: 'us', data: 30, icon: '' },
    { key: 'rss_news', label: 'news', data: 120, icon: '' },
    { key: 'india_capital_markets', label: 'in', data: 12, icon: '' },
    { key: 'nz_capital_markets', label: 'nz', data: 0, icon: '' },
    { key: 'research', label: 'r', data: 0, icon: '' },
  ];

  it('a whole feed: All first, then the tabs with documents; today, links and media hidden', () => {
    expect(shownTabs(infos, null)).toEqual([
      { key: 'all', label: 'All', count: 162 },
      { key: 'rss_news', label: 'News', count: 120 },
      { key: 'india_capital_markets', label: 'Indian Exchange', count: 12 },
      { key: 'us_capital_markets', label: 'US Exchange', count: 30 },
    ]);
  });

  it('the exchanges view: Indian Exchange and US Exchange, NZ only with documents', () => {
    const offered = feedViewOf('/feeds/home/exchanges')?.tabs ?? null;
    expect(shownTabs(infos, offered).map((t) => t.label)).toEqual([
      'Indian Exchange',
      'US Exchange',
    ]);
    const withNz = infos.map((i) => (i.key === 'nz_capital_markets' ? { ...i, data: 3 } : i));
    expect(shownTabs(withNz, offered).map((t) => t.label)).toEqual([
      'Indian Exchange',
      'US Exchange',
      'NZ Exchange',
    ]);
  });

  it('opens on the tab the address names, else All, else the first with documents', () => {
    expect(selectedTab({ requested: 'rss_news', offered: null, tabs: null })).toBe('rss_news');
    expect(selectedTab({ requested: undefined, offered: null, tabs: null })).toBe('all');
    expect(selectedTab({ requested: 'bogus', offered: null, tabs: null })).toBe('all');
    const offered = feedViewOf('/feeds/home/exchanges')?.tabs ?? null;
    expect(selectedTab({ requested: undefined, offered, tabs: null })).toBeNull();
    const onlyUs = shownTabs(
      [{ key: 'us_capital_markets', label: '', data: 5, icon: '' }],
      offered,
    );
    expect(selectedTab({ requested: undefined, offered, tabs: onlyUs })).toBe('us_capital_markets');
    expect(selectedTab({ requested: 'rss_news', offered, tabs: onlyUs })).toBe(
      'us_capital_markets',
    );
  });
});

describe('feed routes (000 §2)', () => {
  it('home, its families, feeds and their sub-views, and one source', () => {
    expect(feedViewOf('/feeds/home')).toMatchObject({ board: 'home', source: null, tabs: null });
    expect(feedViewOf('/feeds/home/rss_news')).toMatchObject({
      tabs: ['rss_news'],
      help: 'websites',
    });
    expect(feedViewOf('/feeds/home/webclips')).toMatchObject({
      tabs: ['webclips'],
      help: 'browser_extension',
    });
    expect(feedViewOf('/feeds/home/exchanges')).toMatchObject({ help: 'capital_markets' });
    expect(feedViewOf('/feeds/home/chats')).toMatchObject({ tabs: [], emptyFamily: 'chats' });
    expect(feedViewOf('/feeds/b42')).toMatchObject({ board: 'b42', tabs: null });
    expect(feedViewOf('/feeds/b42/documents')).toMatchObject({ board: 'b42', tabs: ['documents'] });
    expect(feedViewOf('/feeds/b42/media')).toMatchObject({ emptyFamily: 'media' });
    expect(feedViewOf('/apps/sec')).toMatchObject({ board: 'home', source: 'sec', tabs: null });
    expect(feedViewOf('/notifications')).toBeNull();
  });
});

describe('empty-state help links (000 §2)', () => {
  it('topic pages for websites, capital markets, the extension, tags and bookmarks; else general', () => {
    expect(helpLink('websites', 'needl').href).toBe('https://help.needl.ai/websites');
    expect(helpLink('capital_markets', 'needl').href).toBe('https://help.needl.ai/capital-markets');
    expect(helpLink('browser_extension', 'needl').href).toBe(
      'https://help.needl.ai/browser-extension',
    );
    expect(helpLink('tags_bookmarks', 'needl').href).toBe(
      'https://help.needl.ai/tags-and-bookmarks',
    );
    expect(helpLink(null, 'needl').href).toBe('https://help.needl.ai/');
  });
});
