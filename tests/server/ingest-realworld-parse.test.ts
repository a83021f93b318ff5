import { describe, expect, it } from 'vitest';
import { decodeBody, readsAsUtf8 } from '../../server/ingest/decode';
import { htmlOfPlainText, parseFeed } from '../../server/ingest/parse-feed';
import { fixture } from './ingest-fixture-server';

/**
 * Shapes of real feeds that were refused or misread (issue 16): whitespace before the XML
 * declaration, Latin-1 bytes with no charset anywhere, dates in other languages and forms,
 * RSS 0.92, and YouTube's Atom feeds whose only text is the media's description. Each fixture
 * is read here as the runner reads it (decodeBody with the Content-Type, then parseFeed).
 */

const NOW = Date.parse('2025-03-03T10:00:00.000Z');
const read = (name: string, contentType: string | null = null) =>
  parseFeed(
    decodeBody(fixture(`feeds/${name}`), contentType),
    `https://feeds.example.com/${name}`,
    NOW,
  );

describe('whitespace before the XML declaration', () => {
  it('reads a feed with blank lines before <?xml', () => {
    const feed = read('leading-whitespace.xml', 'application/rss+xml; charset=UTF-8');
    expect(feed.title).toBe('Quayside Capital Blog');
    expect(feed.items.map((i) => [i.title, i.unix])).toEqual([
      ['Why duration is back', 1700042400],
      ['Notes from the emerging markets desk', 1699893900],
    ]);
  });

  it('reads a feed with a byte-order mark and CRLF blank lines before <?xml', () => {
    const feed = read('bom-newlines.xml', 'text/xml');
    expect(feed.title).toBe('Quayside Capital Blog (Windows)');
    expect(feed.items.map((i) => i.title)).toEqual([
      'Why duration is back',
      'Notes from the emerging markets desk',
    ]);
  });

  it('reads whitespace and a stray BOM given as text', () => {
    const xml =
      ' \t\n\uFEFF\n<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>' +
      '<title>W</title><item><title>One</title><guid>w-1</guid></item></channel></rss>';
    expect(parseFeed(xml, 'https://w.example.com/rss', NOW).items.map((i) => i.title)).toEqual([
      'One',
    ]);
  });

  it('still refuses malformed XML after the whitespace, naming the line in the body', () => {
    const malformed = fixture('feeds/malformed.xml').toString('utf8');
    // The fault is on line 11 of the file; three blank lines before it make it line 14.
    expect(() => parseFeed(`\n\n\n${malformed}`, 'https://m.example.com/rss', NOW)).toThrow(
      "the feed is not well-formed XML: Expected closing tag 'title' (opened in line 11, col 7) instead of closing tag 'titel'. (line 14)",
    );
  });

  it('still refuses a declaration after other content', () => {
    const xml =
      '<!-- generated --><?xml version="1.0"?><rss version="2.0"><channel></channel></rss>';
    expect(() => parseFeed(xml, 'https://m.example.com/rss', NOW)).toThrow(
      'the feed is not well-formed XML: XML declaration allowed only at the start of the document. (line 1)',
    );
  });
});

describe('Latin-1 with no charset declared', () => {
  it('decodes the titles as windows-1252, not as U+FFFD', () => {
    for (const contentType of [null, 'application/rss+xml', 'text/xml']) {
      const feed = read('latin1-undeclared.xml', contentType);
      expect(feed.items.map((i) => i.title)).toEqual([
        "Zürich: l'indice SMI termine en hausse",
        'La livre sterling à £0,87 pour un euro',
        "Café et cacao: les cours s'envolent",
      ]);
      expect(feed.items[1].html).toBe(
        "Le change recule après les chiffres de l'inflation: 1 € = £0,87.",
      );
      expect(feed.title).toBe('La Lettre de la Bourse');
    }
  });

  it('keeps valid UTF-8 as UTF-8', () => {
    const utf8 = Buffer.from('<?xml version="1.0"?><x>Zürich £ café</x>', 'utf8');
    expect(decodeBody(utf8, null)).toBe('<?xml version="1.0"?><x>Zürich £ café</x>');
    expect(decodeBody(utf8, 'text/xml')).toBe('<?xml version="1.0"?><x>Zürich £ café</x>');
  });

  it('reads undeclared Latin-1 bytes as windows-1252', () => {
    const latin = Buffer.from([
      ...Buffer.from('<x>Z'),
      0xfc, // ü
      ...Buffer.from('rich '),
      0xa3, // £
      0x80, // € in windows-1252
      ...Buffer.from(' caf'),
      0xe9, // é
      ...Buffer.from('</x>'),
    ]);
    expect(readsAsUtf8(latin)).toBe(false);
    expect(decodeBody(latin, null)).toBe('<x>Zürich £€ café</x>');
  });

  it('keeps a UTF-8 body with one stray byte as UTF-8', () => {
    const body = Buffer.concat([
      Buffer.from('<x>Zürich, Genève, Köln, £ and ', 'utf8'),
      Buffer.from([0xe9]), // a stray Latin-1 byte
      Buffer.from('</x>', 'utf8'),
    ]);
    expect(readsAsUtf8(body)).toBe(true);
    expect(decodeBody(body, null)).toBe('<x>Zürich, Genève, Köln, £ and \uFFFD</x>');
  });

  it('still obeys a declared charset', () => {
    const latin = Buffer.from('<?xml version="1.0" encoding="utf-8"?><x>caf\xe9</x>', 'latin1');
    expect(decodeBody(latin, 'text/xml; charset=utf-8')).toBe(
      '<?xml version="1.0" encoding="utf-8"?><x>caf\uFFFD</x>',
    );
  });
});

describe('dates in other languages and forms', () => {
  it('reads a German RSS 2.0 feed with localized day and month names', () => {
    const feed = read('german-rss.xml', 'application/rss+xml; charset=utf-8');
    expect(feed.title).toBe('Börsen-Ticker – Nachrichten');
    expect(feed.items.map((i) => [i.title, i.unix])).toEqual([
      ['Mai-Rallye: DAX startet mit Gewinnen', 1714626900], // Do, 2 Mai 2024 07:15:00 +0200
      ['Jänner-Effekt: Wiener Börse im Plus', 1705478400], // Mi, 17 Jän 2024 09:00:00 +0100
      ['Märkte zum Jahresende: Anleger schließen Bücher', 1703242800], // Fr, 22 Dez 2023 12:00 +0100
      ['DAX schließt über 16.000 Punkten', 1700038800], // Mi, 15 Nov 2023 10:00:00 +0100
      ['Zinsentscheid: EZB lässt Leitzins unverändert', 1698322500], // Do, 26 Okt 2023 14:15 CEST
      ['Ölpreis fällt nach OPEC-Treffen', 1678087800], // Mo, 6 Mär 2023 08:30 +0100
    ]);
  });

  it('reads RSS 0.92: item dates, and the channel date for undated items', () => {
    const feed = read('rss-092.xml', 'text/xml');
    expect(feed.format).toBe('rss');
    expect(feed.title).toBe('Harbour Street Notes');
    expect(feed.items.map((i) => [i.title, i.unix, i.url])).toEqual([
      // Undated: the channel's lastBuildDate, Tue, 14 Nov 23 16:30 EST (later than its pubDate).
      [
        'Freight rates ease for a second week',
        1699997400,
        'http://harbourstreet.example.net/2023/11/14#a1',
      ],
      [
        'Port of Rotterdam volumes held steady in October; transshipment rose.',
        1699997400,
        'http://harbourstreet.example.net/2023/11/14#a2',
      ],
      // Mon, 13 Nov 23 08:05 EST: two-digit year, no seconds.
      ['Canal draft limits lifted', 1699880700, 'http://harbourstreet.example.net/2023/11/13#a1'],
    ]);
  });

  it('dates undated RSS items by the latest channel date, never later than now', () => {
    const rss = (channelDates: string) =>
      `<rss version="0.92"><channel><title>C</title>${channelDates}` +
      '<item><title>Undated</title><link>https://c.example.com/1</link></item></channel></rss>';
    const unix = (channelDates: string) =>
      parseFeed(rss(channelDates), 'https://c.example.com/rss', NOW).items[0].unix;
    // pubDate only, in German.
    expect(unix('<pubDate>Mi, 15 Nov 2023 10:00:00 +0100</pubDate>')).toBe(1700038800);
    // Both: the later, whichever element holds it.
    expect(
      unix(
        '<pubDate>Wed, 15 Nov 2023 10:00:00 GMT</pubDate>' +
          '<lastBuildDate>Tue, 14 Nov 2023 10:00:00 GMT</lastBuildDate>',
      ),
    ).toBe(1700042400);
    // A channel date in the future is now (2025-03-03T10:00:00Z).
    expect(unix('<lastBuildDate>Sat, 01 Jan 2050 00:00:00 GMT</lastBuildDate>')).toBe(1740996000);
    // No channel date, or none that reads: now.
    expect(unix('')).toBe(1740996000);
    expect(unix('<lastBuildDate>gestern</lastBuildDate>')).toBe(1740996000);
  });

  it('falls back to the Atom updated date, then now, when the published date does not read', () => {
    const atom = (dates: string) =>
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>' +
      `<entry><id>a-1</id><title>E</title>${dates}</entry></feed>`;
    const unix = (dates: string) =>
      parseFeed(atom(dates), 'https://a.example.com/atom', NOW).items[0].unix;
    expect(unix('<published>2023-11-15 10:00:00</published>')).toBe(1700042400);
    expect(
      unix('<published>demain</published><updated>Mi, 15 Nov 2023 10:00:00 +0100</updated>'),
    ).toBe(1700038800);
    expect(unix('<published>demain</published>')).toBe(1740996000);
  });

  it('reads Dublin Core dates in other forms', () => {
    const xml =
      '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>D</title>' +
      '<item><title>One</title><guid>d-1</guid><dc:date>2023-11-15T10:00:00</dc:date></item>' +
      '<item><title>Two</title><guid>d-2</guid><pubDate>mer., 15 nov. 2023 10:00:00 +0100</pubDate></item>' +
      '</channel></rss>';
    expect(parseFeed(xml, 'https://d.example.com/rss', NOW).items.map((i) => i.unix)).toEqual([
      1700042400, 1700038800,
    ]);
  });
});

describe('media descriptions as the text', () => {
  it("reads a YouTube channel's entries: media:group's description as the text", () => {
    const feed = read('youtube-channel.xml', 'application/atom+xml; charset=UTF-8');
    expect(feed.format).toBe('atom');
    expect(feed.title).toBe('Market Minutes');
    expect(
      feed.items.map((i) => [i.dedupe_key, i.title, i.url, i.unix, i.html, i.thumbnail]),
    ).toEqual([
      [
        'yt:video:Qm8sRt2LpXw',
        'Fed holds rates: what it means for bonds',
        'https://www.youtube.com/watch?v=Qm8sRt2LpXw',
        1700042412, // 2023-11-15T10:00:12+00:00
        '<p>The Fed left rates at 5.25-5.50%.<br>Chapters:<br>00:00 Intro<br>' +
          '02:15 Bonds &amp; yields &lt;2y vs 10y&gt;</p>' +
          '<p>Subscribe for a market minute every morning.</p>',
        'https://i2.ytimg.com/vi/Qm8sRt2LpXw/hqdefault.jpg',
      ],
      [
        'yt:video:Zk41bVv0aEo',
        'Oil slides after OPEC+ meeting',
        'https://www.youtube.com/watch?v=Zk41bVv0aEo',
        1699983000, // 2023-11-14T17:30:00+00:00
        '<p>Brent fell 4% as OPEC+ delayed its meeting.</p>',
        'https://i3.ytimg.com/vi/Zk41bVv0aEo/hqdefault.jpg',
      ],
      [
        'yt:video:Hn7cLq0Wd2s',
        'Live: opening bell, 13 November',
        'https://www.youtube.com/watch?v=Hn7cLq0Wd2s',
        1699885503, // 2023-11-13T14:25:03+00:00
        null, // an empty media:description: no text
        'https://i1.ytimg.com/vi/Hn7cLq0Wd2s/hqdefault.jpg',
      ],
    ]);
  });

  const rss = (item: string) =>
    '<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>M</title>' +
    `<item><guid>m-1</guid>${item}</item></channel></rss>`;
  const one = (item: string) => parseFeed(rss(item), 'https://m.example.com/rss', NOW).items[0];

  it('takes media:description on the item, and media:title when there is no title', () => {
    const item = one(
      '<media:title>Clip: the closing auction</media:title>' +
        '<media:description>How the closing auction sets the price &amp; why.</media:description>',
    );
    expect(item.title).toBe('Clip: the closing auction');
    expect(item.html).toBe('<p>How the closing auction sets the price &amp; why.</p>');
  });

  it("keeps an item's own description over the media's", () => {
    const item = one(
      '<title>T</title><media:description>Media text</media:description>' +
        '<description>&lt;b&gt;Own&lt;/b&gt; text</description>',
    );
    expect(item.html).toBe('<b>Own</b> text');
  });

  it('reads a description inside media:content, and an html one as html', () => {
    expect(
      one(
        '<title>T</title><media:content url="https://m.example.com/v.mp4" type="video/mp4">' +
          '<media:description type="html">&lt;p&gt;Inside &lt;i&gt;content&lt;/i&gt;&lt;/p&gt;</media:description>' +
          '</media:content>',
      ).html,
    ).toBe('<p>Inside <i>content</i></p>');
  });

  it('takes the first words of a media description as the title when nothing else has one', () => {
    expect(
      one('<media:description>Rates held at 4% for a fifth month</media:description>').title,
    ).toBe('Rates held at 4% for a fifth month');
  });

  it("reads another namespace's description as the item's own (only Media RSS's is the media's)", () => {
    const xml =
      '<rss version="2.0" xmlns:x="https://x.example.com/ns"><channel><title>X</title>' +
      '<item><title>T</title><guid>x-1</guid><x:description>Not media</x:description></item>' +
      '</channel></rss>';
    expect(parseFeed(xml, 'https://x.example.com/rss', NOW).items[0].html).toBe('Not media');
  });

  it('writes plain text as escaped paragraphs with line breaks', () => {
    expect(htmlOfPlainText('a < b & c\nnext line\n\n  second "para"  \n\n\n')).toBe(
      '<p>a &lt; b &amp; c<br>next line</p><p>second &quot;para&quot;</p>',
    );
    expect(htmlOfPlainText(' \n \n ')).toBeNull();
  });
});
