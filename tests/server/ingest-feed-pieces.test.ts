import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../server/ingest/decode';
import { feedHead } from '../../server/ingest/feed-split';
import {
  assertWellFormed,
  openFeedReader,
  parseFeed,
  type FeedInput,
} from '../../server/ingest/parse-feed';
import { fixture, FIXTURES, rssOf } from './ingest-fixture-server';

/**
 * A feed read a piece at a time (feed-split.ts, issue 17): the same documents as read at once,
 * from its text or from its bytes, its faults named at their line in the whole feed, and its
 * title read from its first bytes.
 */

const NOW = Date.parse('2025-03-03T10:00:00.000Z');
const URL_ = 'https://feeds.example.com/feed.xml';
const ONE_AT_A_TIME = { itemsPerPiece: 1, charsPerPiece: 1 };

const itemsOf = (input: FeedInput, opts?: Parameters<typeof openFeedReader>[3]) =>
  [...openFeedReader(input, URL_, NOW, opts).batches()].flat();

const faultOf = (read: () => unknown) => {
  try {
    read();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no fault';
};

const feeds = readdirSync(join(FIXTURES, 'feeds')).filter((name) => name !== 'malformed.xml');

describe('a feed read a piece at a time', () => {
  it.each(feeds)('reads %s item by item as it reads it at once', (name) => {
    const text = decodeBody(fixture(`feeds/${name}`), null);
    const whole = parseFeed(text, URL_, NOW).items;
    expect(whole.length).toBeGreaterThan(0);
    expect(itemsOf(text, ONE_AT_A_TIME)).toEqual(whole);
  });

  it.each(feeds)('reads %s from its bytes as from its text', (name) => {
    const body = fixture(`feeds/${name}`);
    expect(itemsOf({ body, contentType: null }, ONE_AT_A_TIME)).toEqual(
      itemsOf(decodeBody(body, null)),
    );
  });

  it('reads a UTF-16 feed (bytes that cannot be cut at tags) whole', () => {
    const text = rssOf(3, 1, 'Wire “quoted” €');
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]);
    const items = itemsOf({ body, contentType: 'application/rss+xml; charset=utf-16' });
    expect(items.map((i) => i.title)).toEqual(['Story 1', 'Story 2', 'Story 3']);
    expect(openFeedReader({ body, contentType: null }, URL_, NOW).meta.title).toBe(
      'Wire “quoted” €',
    );
  });

  it('reads a feed of 500 items in pieces of 50, in its order', () => {
    const reader = openFeedReader(rssOf(500), URL_, NOW);
    const batches = [...reader.batches()];
    expect(reader.count).toBe(500);
    expect(batches.map((b) => b.length)).toEqual(Array(10).fill(50));
    expect(batches.flat().map((i) => i.title)).toEqual(
      Array.from({ length: 500 }, (_, i) => `Story ${i + 1}`),
    );
  });

  const item150 = /<item><title>Story 150<\/title>.*?<\/item>/;
  it.each([
    ['a tag closed by another name', (item: string) => item.replace('</title>', '</titel>')],
    [
      'an attribute given twice',
      (item: string) => item.replace('isPermaLink="false"', 'a="1" a="2"'),
    ],
    ['an unclosed item', (item: string) => item.replace('</item>', '')],
  ])('names %s at its line in the whole feed', (_, breakItem) => {
    const lines = rssOf(200).replace(/<item>/g, '\n<item>');
    const broken = lines.replace(item150, breakItem);
    expect(broken).not.toBe(lines);
    const whole = faultOf(() => assertWellFormed(broken));
    expect(whole).toMatch(/^the feed is not well-formed XML: .* \(line \d+\)$/);
    expect(faultOf(() => parseFeed(broken, URL_, NOW))).toBe(whole);
    expect(faultOf(() => itemsOf(broken, ONE_AT_A_TIME))).toBe(whole);
  });

  it('refuses a feed with more than 1 MB outside its items', () => {
    const text = rssOf(2).replace('<description>fixture', `<description>${'x'.repeat(1_100_000)}`);
    expect(faultOf(() => itemsOf(text))).toBe(
      'the feed has more than 1 MB of text outside its items',
    );
  });
});

describe("a feed's first bytes", () => {
  it('give its title and site, wherever they are cut', () => {
    const text = rssOf(100, 1, 'Harbour &amp; Quay wire');
    for (const cut of [200, 260, 700, 5000]) {
      const { meta, count } = openFeedReader(feedHead(text.slice(0, cut)), URL_, NOW);
      expect([meta.title, meta.siteUrl, count]).toEqual([
        'Harbour & Quay wire',
        'https://news.example.com/',
        0,
      ]);
    }
  });
});
