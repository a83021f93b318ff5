import { createHash } from 'node:crypto';
import { parseFeed as parseXmlFeed } from '@rowanmanning/feed-parser';
// A dependency of @rowanmanning/feed-parser (which parses with it, leniently): its validator
// tells a malformed feed apart from a messy one, with the line of the fault.
import { XMLValidator } from 'fast-xml-parser';
import { compile } from 'html-to-text';
import { absoluteUrl, type IncomingDocument } from '../documents';
import { decodeBody, pieceDecoder } from './decode';
import {
  bytesText,
  feedPieces,
  stringText,
  type FeedPieceOptions,
  type FeedText,
} from './feed-split';
import { FetchError } from './fetch-error';
import { unixOfDateText } from './feed-dates';
import { keepValues } from './kept-getters';

/**
 * RSS 0.9x, 1.0 (RDF) and 2.0, and Atom, read with @rowanmanning/feed-parser, turned into the
 * documents CONTENT stores. What real feeds get wrong is absorbed here: CDATA, iTunes and
 * Media RSS images, whitespace before the XML declaration, dates in other languages and
 * forms (unixOfDateText), entries without dates (updated, else the RSS channel's date, else
 * now), relative links (resolved against the feed's site, else the feed's own address),
 * items without text (their media:description, as YouTube's entries) or titles (media:title,
 * else the text's first words). XML that is not well-formed is refused with the parser's
 * words and line.
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

// Compiled once (`convert` compiles its selectors on every call).
const plainTextOf = compile({
  wordwrap: false,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { ignoreHref: true } },
  ],
});

/** Plain text of an HTML fragment (for the title fallback and the hash). */
export const textOf = (html: string | null): string =>
  html ? plainTextOf(html).replace(/\s+/g, ' ').trim() : '';

/** The first words of a text, as a title for an item that has none. */
export const titleFromText = (text: string): string | null => {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return words.length > TITLE_WORDS
    ? `${words.slice(0, TITLE_WORDS).join(' ')}...`
    : words.join(' ');
};

/**
 * A stable key for an item: guid/id, else link, else a hash of its title and text (`content`
 * is only called then: turning HTML into text is the slow part of reading a feed).
 */
export const dedupeKey = (id: string | null, link: string | null, content: () => string) => {
  const key = id?.trim() || link || `sha256:${sha256(content())}`;
  return key.length > MAX_KEY ? `sha256:${sha256(key)}` : key;
};

/**
 * Whitespace before the XML declaration (blank lines a template printed, a byte-order mark
 * followed by newlines): XML forbids it, but every reader ignores it, and so does this one.
 */
const LEADING_BEFORE_DECLARATION = /^\s+(?=<\?xml[\s?])/;

/** Refuses a body that is not well-formed XML, naming the fault and its line. */
export const assertWellFormed = (text: string): void => {
  // Validated without the whitespace before the declaration; the line named is the body's.
  const leading = LEADING_BEFORE_DECLARATION.exec(text)?.[0] ?? '';
  const skippedLines = leading.split('\n').length - 1;
  // A bare "&" (not an entity) is the commonest flaw of hand-made feeds and harmless to read:
  // the lenient parser reads it as text, so only real structure faults are refused.
  const repaired = text
    .slice(leading.length)
    .replace(/&(?!#\d+;|#x[\da-f]+;|[a-z][\w.-]*;)/gi, '&amp;');
  const result = XMLValidator.validate(repaired, { allowBooleanAttributes: true });
  if (result !== true) {
    const { msg, line } = result.err;
    throw new FetchError(
      'parse',
      `the feed is not well-formed XML: ${msg} (line ${line + skippedLines})`,
    );
  }
};

type LibraryFeed = ReturnType<typeof parseXmlFeed>;
type LibraryItem = LibraryFeed['items'][number];

/** The library's reading of a (checked) document, its getters computed once. */
const libraryFeed = (text: string): LibraryFeed => {
  try {
    return keepValues(parseXmlFeed(text));
  } catch {
    throw new FetchError('parse', 'the address is not an RSS or Atom feed');
  }
};

type XmlElement = LibraryItem['element'];

const childElements = (el: XmlElement): XmlElement[] =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string');

const MEDIA_RSS = new Set(['http://search.yahoo.com/mrss/', 'https://search.yahoo.com/mrss/']);
const isMediaRss = (el: XmlElement): boolean => MEDIA_RSS.has(el.namespaceUri ?? '');

/**
 * Where an item's date is, first that reads: its publication (RSS pubDate, Atom published or
 * issued, Dublin Core date or created), else its last update (Atom updated or modified).
 */
const ITEM_DATES = ['pubdate', 'published', 'issued', 'date', 'created', 'modified', 'updated'];
/** A channel's dates (RSS): when its content last changed, and its publication. */
const CHANNEL_DATES = ['lastbuilddate', 'pubdate', 'date'];

/** The dates of an element's children named `names`, in that order, that read. */
const datesOf = (el: XmlElement, names: readonly string[]): number[] => {
  const children = childElements(el).map((c) => [c.name, c] as const);
  const dates: number[] = [];
  for (const name of names) {
    for (const [childName, child] of children) {
      if (childName !== name) continue;
      const unix = unixOfDateText(child.textContent);
      if (unix !== null) dates.push(unix);
    }
  }
  return dates;
};

/** An item's date (ITEM_DATES), else null. */
const itemDate = (el: XmlElement): number | null => datesOf(el, ITEM_DATES)[0] ?? null;

/**
 * An RSS item's own description. The library takes the first child named description, and
 * `<media:description>` is one too: that is the media's text, read by mediaText.
 */
const rssDescription = (el: XmlElement): string | null => {
  for (const child of childElements(el)) {
    if (child.name !== 'description') continue;
    if (typeof child.namespace !== 'symbol' && isMediaRss(child)) continue;
    const text = child.textContentNormalized;
    if (text) return text;
  }
  return null;
};

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as HTML: a paragraph per blank-line-separated block, its line breaks kept. */
export const htmlOfPlainText = (text: string): string | null => {
  const paragraphs = text
    .split(/\n[^\S\n]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return paragraphs.length > 0
    ? paragraphs.map((p) => `<p>${escapeHtml(p).replace(/[^\S\n]*\n\s*/g, '<br>')}</p>`).join('')
    : null;
};

/**
 * Media RSS text of an item: media:title and media:description, on the item, in its
 * media:group (YouTube's Atom feeds) or in a media:content, nearest first. A description is
 * plain text unless its type says html.
 */
const mediaText = (el: XmlElement): { title: string | null; html: string | null } => {
  let title: string | null = null;
  let html: string | null = null;
  let level = childElements(el).filter(isMediaRss);
  for (let depth = 0; depth < 3 && level.length > 0 && !(title && html); depth++) {
    for (const child of level) {
      if (!title && child.name === 'title') {
        const text = child.textContentNormalized;
        title = (child.getAttribute('type') === 'html' ? textOf(text) : text) || null;
      }
      if (!html && child.name === 'description') {
        const text = child.textContentNormalized;
        html = child.getAttribute('type') === 'html' ? text || null : htmlOfPlainText(text);
      }
    }
    level = level
      .filter((c) => c.name === 'group' || c.name === 'content')
      .flatMap((c) => childElements(c).filter(isMediaRss));
  }
  return { title, html };
};

const itemReader = (feed: LibraryFeed, feedUrl: string, now: number) => {
  const siteUrl = absoluteUrl(feed.url, feedUrl);
  const base = siteUrl ?? feedUrl;
  const nowUnix = Math.floor(now / 1000);
  const isAtom = feed.meta.type === 'atom';
  // An undated RSS item (RSS 0.91 and 0.92 items have no pubDate) is dated by its channel:
  // the latest of lastBuildDate and pubDate, never later than now. An Atom entry has its own.
  const channelDates = isAtom ? [] : datesOf(feed.element, CHANNEL_DATES);
  const channelUnix = channelDates.length > 0 ? Math.min(Math.max(...channelDates), nowUnix) : null;
  const read = (libraryItem: LibraryItem): IncomingDocument => {
    // The library's getters rebuild what they read on every call (an element's children are
    // new objects each time): kept after their first read, an item costs a fraction.
    const item = keepValues(libraryItem, ['media', 'element']);
    keepValues(item.element, ['children']);
    const link = absoluteUrl(item.url, base);
    const own = item.content ?? (isAtom ? item.description : rssDescription(item.element));
    // An item with no text of its own (a YouTube video) is told by its media's.
    const media = own ? null : mediaText(item.element);
    const html = own ?? media?.html ?? null;
    // The text is derived from the sanitised HTML when stored (content/store.ts); here it
    // is needed only for an item without a title, or without a guid and a link.
    let plain: string | undefined;
    const plainText = () => (plain ??= textOf(html));
    // Titles are text, though some feeds put markup in them (in CDATA).
    const given = item.title?.includes('<') ? textOf(item.title) : item.title?.trim();
    const title = given || (media ?? mediaText(item.element)).title || titleFromText(plainText());
    const image = item.image?.url ?? item.media.find((m) => m.image)?.image ?? null;
    return {
      dedupe_key: dedupeKey(item.id, link, () => `${title ?? ''}\n${plainText()}`),
      title,
      url: link,
      unix: itemDate(item.element) ?? channelUnix ?? nowUnix,
      html,
      text: null,
      thumbnail: absoluteUrl(image, base),
      categories: item.categories
        .map((c) => (c.label ?? c.term).trim())
        .filter((c) => c.length > 0),
      mime_type: 'text/html',
    };
  };
  return read;
};

/** The documents of one piece of a feed. */
const readPiece = (piece: string, feedUrl: string, now: number): IncomingDocument[] => {
  const feed = libraryFeed(piece);
  return feed.items.map(itemReader(feed, feedUrl, now));
};

/** The feed's own fields. */
const metaOf = (feed: LibraryFeed, feedUrl: string): Omit<ParsedFeed, 'items'> => ({
  format: feed.meta.type === 'atom' ? 'atom' : 'rss',
  title: feed.title?.trim() || null,
  siteUrl: absoluteUrl(feed.url, feedUrl),
});

export type FeedReader = {
  meta: Omit<ParsedFeed, 'items'>;
  /** How many items the feed holds. */
  count: number;
  /** The items, a piece of the feed at a time (feed-split.ts), in the feed's order. */
  batches(): Generator<IncomingDocument[]>;
};

/** A feed as text, or as the fetched body's bytes (decoded a piece at a time when it can be). */
export type FeedInput = string | { body: Buffer; contentType: string | null };

const feedTextOf = (input: FeedInput): { text: FeedText; start: number } => {
  if (typeof input === 'string') return { text: stringText(input), start: 0 };
  const cut = pieceDecoder(input.body, input.contentType);
  if (!cut) return { text: stringText(decodeBody(input.body, input.contentType)), start: 0 };
  return { text: bytesText(input.body, cut.decode, cut.encodedLength), start: cut.start };
};

/**
 * Opens a feed for reading a piece at a time: its layout is scanned and the text around its
 * items checked and read (a FetchError when it is not a well-formed RSS or Atom feed); each
 * piece is checked and read when its batch is asked for. Whitespace or a BOM before the XML
 * declaration is skipped (its lines still count in the fault's line). A generator that yields
 * between steps of the scan: run it through (openFeedReader) or turning the event loop at each
 * step (openFeedReaderYielding).
 */
function* opening(
  input: FeedInput,
  feedUrl: string,
  now: number,
  opts?: FeedPieceOptions,
): Generator<void, FeedReader> {
  const { text, start } = feedTextOf(input);
  const head = text.slice(start, Math.min(text.length, start + 4096));
  const leading = LEADING_BEFORE_DECLARATION.exec(head)?.[0] ?? '';
  const split = yield* feedPieces(
    text,
    start + text.measure(leading),
    leading.split('\n').length - 1,
    opts,
  );
  const meta = metaOf(libraryFeed(split.outer), feedUrl);
  return {
    meta,
    count: split.count,
    *batches() {
      // The piece's parsed tree is let go before the batch is handed on: a generator keeps its
      // locals while it waits, and the tree would live on through the batch's storing.
      for (const piece of split.pieces()) yield readPiece(piece, feedUrl, now);
    },
  };
}

/** Opens a feed at once (small feeds, a feed's first bytes, tests). */
export const openFeedReader = (
  input: FeedInput,
  feedUrl: string,
  now: number,
  opts?: FeedPieceOptions,
): FeedReader => {
  const steps = opening(input, feedUrl, now, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
};

/** Opens a feed letting the event loop turn between steps of its scan (the runner). */
export const openFeedReaderYielding = async (
  input: FeedInput,
  feedUrl: string,
  now: number,
): Promise<FeedReader> => {
  const steps = opening(input, feedUrl, now);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await yieldToLoop();
  }
};

/** A whole feed at once (small feeds, tests); the runner reads a batch at a time. */
export const parseFeed = (text: string, feedUrl: string, now: number): ParsedFeed => {
  const reader = openFeedReader(text, feedUrl, now);
  return { ...reader.meta, items: [...reader.batches()].flat() };
};

/**
 * An opened feed's items for the runner, a batch at a time, letting the event loop turn after
 * each (a 35,000-item feed is seconds of work), so the API answers meanwhile.
 */
export async function* feedBatches(reader: FeedReader): AsyncGenerator<IncomingDocument[]> {
  for (const batch of reader.batches()) {
    yield batch;
    await yieldToLoop();
  }
}

/** Lets timers and I/O run (a resolved promise would not: it stays in the microtask queue). */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
