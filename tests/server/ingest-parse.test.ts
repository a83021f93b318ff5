import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../server/ingest/decode';
import { parseFeed } from '../../server/ingest/parse-feed';
import { discoverFeeds, readablePage } from '../../server/ingest/website';
import { fixture } from './ingest-fixture-server';

/** What real publishers' feeds get wrong, each read from a fixture into documents. */

const NOW = Date.parse('2025-03-03T10:00:00.000Z');
const NOW_S = NOW / 1000;
const read = (name: string, url = `https://feeds.example.com/${name}`) =>
  parseFeed(decodeBody(fixture(`feeds/${name}`), null), url, NOW);

describe('feed parsing', () => {
  it('reads CDATA titles and bodies, keeping the HTML', () => {
    const feed = read('cdata.xml');
    expect(feed.title).toBe('Markets & Rates Daily');
    expect(feed.items).toHaveLength(1);
    const [item] = feed.items;
    expect(item.title).toBe('Yields rise as inflation surprises');
    expect(item.html).toContain('<strong>12bp</strong>');
    expect(item.html).toContain('<p>Markets now price two cuts, down from three.</p>');
    expect(item.categories).toEqual(['Fixed Income']);
    expect(item.dedupe_key).toBe('https://rates.example.com/notes/yields-rise');
    expect(item.unix).toBe(Date.parse('2025-03-03T07:15:00Z') / 1000);
  });

  it('takes thumbnails from iTunes images, media:thumbnail and media:content', () => {
    const feed = read('itunes-media.xml');
    expect(feed.items.map((i) => [i.dedupe_key, i.thumbnail])).toEqual([
      ['earnings-hour-41', 'https://podcast.example.com/episodes/41.jpg'],
      ['chart-2025-09', 'https://podcast.example.com/charts/2025-09-thumb.png'],
      ['gallery-floor', 'https://podcast.example.com/gallery/floor.jpg'],
    ]);
  });

  it('dates Atom entries by updated when unpublished, and by now when undated', () => {
    const feed = read('atom-no-dates.xml');
    expect(feed.items.map((i) => [i.title, i.unix])).toEqual([
      ['Only updated', Date.parse('2025-02-20T08:30:00Z') / 1000],
      ['No date at all', NOW_S],
    ]);
    expect(feed.items[1].dedupe_key).toBe('urn:uuid:1225c695-cfb8-4ebb-bbbb-80da344efa6b');
  });

  it('resolves relative links and images against the site', () => {
    const feed = read('relative-links.xml', 'https://feeds.example.com/blog/rss');
    expect(feed.items.map((i) => i.url)).toEqual([
      'https://blog.example.com/posts/root-relative',
      'https://blog.example.com/posts/path-relative',
    ]);
    expect(feed.items[1].thumbnail).toBe('https://blog.example.com/images/chart.png');
  });

  it('titles an untitled item by its first words, and keys a linkless one by a hash', () => {
    const feed = read('missing-titles.xml');
    expect(feed.items[0].title).toBe(
      'The central bank cut its policy rate by 25 basis points this...',
    );
    expect(feed.items[1].title).toBe('Copper at a two-year high.');
    expect(feed.items[1].url).toBeNull();
    expect(feed.items[1].dedupe_key).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The same item read again gets the same key (so a second poll is a duplicate).
    expect(read('missing-titles.xml').items[1].dedupe_key).toBe(feed.items[1].dedupe_key);
  });

  it('reads RSS 0.91 and RSS 1.0 (RDF)', () => {
    expect(read('rss-091.xml').items.map((i) => i.title)).toEqual([
      'Exchange extends trading hours',
    ]);
    const rdf = read('rdf-10.xml');
    expect(rdf.items.map((i) => [i.title, i.unix])).toEqual([
      ['Consumer prices, February 2025', Date.parse('2025-03-12T13:30:00Z') / 1000],
    ]);
  });

  it('decodes windows-1252 and ISO-8859-1 feeds by their declaration', () => {
    const cp = read('windows-1252.xml');
    expect(cp.title).toBe('Café Economics');
    expect(cp.items[0].title).toBe('“Strong euro” costs exporters €2bn – survey');
    expect(cp.items[0].html).toBe('Exporters’ margins fell; the café owners’ index held.');
    const latin = read('iso-8859-1.xml');
    expect(latin.title).toBe('Börse München Nachrichten');
    expect(latin.items[0].title).toBe('Größte Kursgewinne seit März');
  });

  it('prefers the Content-Type charset to the declaration', () => {
    const bytes = Buffer.from('<?xml version="1.0" encoding="utf-8"?><x>caf\xe9</x>', 'latin1');
    expect(decodeBody(bytes, 'text/xml; charset=ISO-8859-1')).toContain('café');
  });

  it('refuses malformed XML with the fault and its line', () => {
    expect(() => read('malformed.xml')).toThrow(
      "the feed is not well-formed XML: Expected closing tag 'title' (opened in line 11, col 7) instead of closing tag 'titel'. (line 11)",
    );
  });

  it('reads a feed with a bare ampersand rather than refusing it', () => {
    const xml =
      '<rss version="2.0"><channel><title>A & B</title><item><title>Q&A</title>' +
      '<link>https://ab.example.com/qa</link></item></channel></rss>';
    const feed = parseFeed(xml, 'https://ab.example.com/rss', NOW);
    expect(feed.items.map((i) => i.title)).toEqual(['Q&A']);
  });
});

describe('websites', () => {
  it("discovers a page's feed (relative href, comment feeds skipped)", () => {
    const html = fixture('websites/with-feed.html').toString();
    expect(discoverFeeds(html, 'https://harbour.example.com/research/')).toEqual([
      'https://harbour.example.com/research/feed.xml',
    ]);
  });

  it('reads a page without a feed as one document of its readable text', () => {
    const html = fixture('websites/article.html').toString();
    const doc = readablePage(html, 'https://harbour.example.com/ports', NOW);
    expect(doc.title).toBe('Port volumes climb for a third month');
    expect(doc.url).toBe('https://harbour.example.com/ports');
    expect(doc.text).toContain('Container volumes at the country');
    expect(doc.text).not.toContain('Subscribe');
    expect(doc.text).not.toContain('window.tracker');
    // The same text is the same version; a changed text is a new one.
    expect(readablePage(html, 'https://harbour.example.com/ports', NOW).dedupe_key).toBe(
      doc.dedupe_key,
    );
    const changed = html.replace('6.2%', '6.4%');
    expect(readablePage(changed, 'https://harbour.example.com/ports', NOW).dedupe_key).not.toBe(
      doc.dedupe_key,
    );
  });

  it('refuses a page with no readable text', () => {
    expect(() => readablePage('<html><body></body></html>', 'https://e.example/', NOW)).toThrow(
      'the page has no feed and no readable text',
    );
  });
});
