import { createHash } from 'node:crypto';
import { parseFeed as parseXmlFeed } from '@rowanmanning/feed-parser';
// A dependency of @rowanmanning/feed-parser (which parses with it, leniently): its validator
// tells a malformed feed apart from a messy one, with the line of the fault.
import { XMLValidator } from 'fast-xml-parser';
import { convert } from 'html-to-text';
import type { IncomingDocument } from '../documents/store';
import { FetchError } from './fetch-error';

/**
 * RSS 0.9x, 1.0 (RDF) and 2.0, and Atom, read with @rowanmanning/feed-parser, turned into the
 * documents CONTENT stores. What real feeds get wrong is absorbed here: CDATA, iTunes and
 * Media RSS images, entries without dates (updated, else now), relative links (resolved
 * against the feed's site, else the feed's own address), items without titles (the text's
 * first words). XML that is not well-formed is refused with the parser's words and line.
 */
export type ParsedFeed = {
  format: 'rss' | 'atom';
  title: string | null;
  /** The site the feed is for (absolute), when it says. */
  siteUrl: string | null;
  items: IncomingDocument[];
};

const FEED_ROOT =
  /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*|<\?[^>]*\?>\s*)*<(?:rss|feed|rdf:RDF|RDF)\b/i;

/** Whether a body is an RSS, RDF or Atom document (by its root element). */
export const looksLikeFeed = (text: string): boolean => FEED_ROOT.test(text.slice(0, 4096));

const TITLE_WORDS = 12;
const MAX_KEY = 400;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Plain text of an HTML fragment (for the title fallback and the hash). */
export const textOf = (html: string | null): string =>
  html
    ? convert(html, {
        wordwrap: false,
        selectors: [
          { selector: 'img', format: 'skip' },
          { selector: 'a', options: { ignoreHref: true } },
        ],
      })
        .replace(/\s+/g, ' ')
        .trim()
    : '';

/** The first words of a text, as a title for an item that has none. */
export const titleFromText = (text: string): string | null => {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return words.length > TITLE_WORDS
    ? `${words.slice(0, TITLE_WORDS).join(' ')}...`
    : words.join(' ');
};

/** An absolute http(s) address, resolved against `base`; null for anything else. */
export const absoluteUrl = (raw: string | null | undefined, base: string | null): string | null => {
  if (!raw) return null;
  try {
    const url = base ? new URL(raw.trim(), base) : new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/**
 * A stable key for an item: guid/id, else link, else a hash of its title and text (`content`
 * is only called then: turning HTML into text is the slow part of reading a feed).
 */
export const dedupeKey = (id: string | null, link: string | null, content: () => string) => {
  const key = id?.trim() || link || `sha256:${sha256(content())}`;
  return key.length > MAX_KEY ? `sha256:${sha256(key)}` : key;
};

/** Refuses a body that is not well-formed XML, naming the fault and its line. */
export const assertWellFormed = (text: string): void => {
  // A bare "&" (not an entity) is the commonest flaw of hand-made feeds and harmless to read:
  // the lenient parser reads it as text, so only real structure faults are refused.
  const repaired = text.replace(/&(?!#\d+;|#x[\da-f]+;|[a-z][\w.-]*;)/gi, '&amp;');
  const result = XMLValidator.validate(repaired, { allowBooleanAttributes: true });
  if (result !== true) {
    const { msg, line } = result.err;
    throw new FetchError('parse', `the feed is not well-formed XML: ${msg} (line ${line})`);
  }
};

const unixOf = (d: Date | null): number | null => {
  const ms = d?.getTime();
  return ms !== undefined && Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};

/**
 * Makes a parsed feed's getters compute once. Items fall back to feed-level values (the
 * feed's link, categories, image), which the library recomputes by scanning the whole channel
 * each time: per item that is quadratic, minutes for a 10k-item feed. A parsed feed never
 * changes, so each value is kept after its first read.
 */
const memoiseGetters = <T extends object>(obj: T): T => {
  for (let proto = Object.getPrototypeOf(obj); proto && proto !== Object.prototype;) {
    for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (!desc.get || Object.hasOwn(obj, name)) continue;
      const get = desc.get;
      Object.defineProperty(obj, name, {
        configurable: true,
        get() {
          const value: unknown = get.call(obj);
          Object.defineProperty(obj, name, { value });
          return value;
        },
      });
    }
    proto = Object.getPrototypeOf(proto);
  }
  return obj;
};

type LibraryFeed = ReturnType<typeof parseXmlFeed>;
type LibraryItem = LibraryFeed['items'][number];

const openFeed = (text: string): LibraryFeed => {
  assertWellFormed(text);
  try {
    return memoiseGetters(parseXmlFeed(text));
  } catch {
    throw new FetchError('parse', 'the address is not an RSS or Atom feed');
  }
};

const itemReader = (feed: LibraryFeed, feedUrl: string, now: number) => {
  const siteUrl = absoluteUrl(feed.url, feedUrl);
  const base = siteUrl ?? feedUrl;
  const nowUnix = Math.floor(now / 1000);
  const read = (item: LibraryItem): IncomingDocument => {
    const link = absoluteUrl(item.url, base);
    const html = item.content ?? item.description ?? null;
    // The text is derived from the sanitised HTML when stored (documents/store.ts); here it
    // is needed only for an item without a title, or without a guid and a link.
    let plain: string | undefined;
    const plainText = () => (plain ??= textOf(html));
    // Titles are text, though some feeds put markup in them (in CDATA).
    const given = item.title?.includes('<') ? textOf(item.title) : item.title?.trim();
    const title = given || titleFromText(plainText());
    const image = item.image?.url ?? item.media.find((m) => m.image)?.image ?? null;
    return {
      dedupe_key: dedupeKey(item.id, link, () => `${title ?? ''}\n${plainText()}`),
      title,
      url: link,
      unix: unixOf(item.published) ?? unixOf(item.updated) ?? nowUnix,
      html,
      text: null,
      thumbnail: absoluteUrl(image, base),
      categories: item.categories
        .map((c) => (c.label ?? c.term).trim())
        .filter((c) => c.length > 0),
      mime_type: 'text/html',
    };
  };
  const meta = (items: IncomingDocument[]): ParsedFeed => ({
    format: feed.meta.type === 'atom' ? 'atom' : 'rss',
    title: feed.title?.trim() || null,
    siteUrl,
    items,
  });
  return { read, meta };
};

export const parseFeed = (text: string, feedUrl: string, now: number): ParsedFeed => {
  const feed = openFeed(text);
  const { read, meta } = itemReader(feed, feedUrl, now);
  return meta(feed.items.map(read));
};

/** Items read between turns of the event loop by parseFeedYielding. */
const ITEMS_PER_TURN = 250;

/**
 * parseFeed for the runner: a 10k-item feed takes seconds to read, so it lets the event loop
 * turn every few hundred items, and the API answers meanwhile.
 */
export const parseFeedYielding = async (
  text: string,
  feedUrl: string,
  now: number,
): Promise<ParsedFeed> => {
  const feed = openFeed(text);
  const { read, meta } = itemReader(feed, feedUrl, now);
  const items: IncomingDocument[] = [];
  for (const item of feed.items) {
    items.push(read(item));
    if (items.length % ITEMS_PER_TURN === 0) await yieldToLoop();
  }
  return meta(items);
};

/** Lets timers and I/O run (a resolved promise would not: it stays in the microtask queue). */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
