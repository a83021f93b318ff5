import { XMLValidator } from 'fast-xml-parser';
import { FetchError } from './fetch-error';

/**
 * A feed cut into small documents without building it. A 10 MB feed of 35,000 items read
 * whole is a tree of millions of objects (hundreds of MB) and seconds of work in one turn of
 * the event loop; instead its tags are scanned once for where its items start and end, and
 * the feed is read a batch of items at a time as a small document of its own: the text before
 * the first item (the root and channel), the batch's items, and the text after the last. Each
 * piece is checked for well-formedness (fast-xml-parser's validator) just before it is read,
 * so a malformed feed is still refused with the fault and its line in the whole feed.
 *
 * A fetched feed is cut as bytes and each piece decoded when it is read (FeedText), so for the
 * whole of its reading the feed is its bytes outside the JavaScript heap rather than a string of
 * one or two bytes a character inside it: the heap grows to a multiple of what it holds before
 * the collector runs, so every megabyte kept there costs several of memory.
 */

/** The text being cut: a string, or a body's bytes in a charset that keeps ASCII as ASCII. */
export type FeedText = {
  readonly length: number;
  /** The code unit (string) or byte (bytes) at `i`: the same for every ASCII character. */
  code(i: number): number;
  /** Where the ASCII `literal` next occurs at or after `from`, or -1. */
  find(literal: string, from: number): number;
  /** The text from `start` to `end`, decoded. */
  slice(start: number, end: number): string;
  /** How long `text`, which begins this text, is in its units (characters or bytes). */
  measure(text: string): number;
};

export const stringText = (s: string): FeedText => ({
  length: s.length,
  code: (i) => s.charCodeAt(i),
  find: (literal, from) => s.indexOf(literal, from),
  slice: (start, end) => s.slice(start, end),
  measure: (text) => text.length,
});

/**
 * Bytes decoded by `decode` a piece at a time. Only for charsets in which no byte of a
 * multi-byte character is an ASCII one (UTF-8, single-byte sets, Shift_JIS, GBK, Big5, EUC:
 * their trailing bytes are never `<`, `>`, quotes or brackets), so cutting at a tag never
 * splits a character (decode.ts `pieceDecoder`).
 */
export const bytesText = (
  bytes: Buffer,
  decode: (piece: Buffer) => string,
  encodedLength: (text: string) => number,
): FeedText => ({
  length: bytes.length,
  code: (i) => bytes[i],
  find: (literal, from) => bytes.indexOf(literal, from, 'latin1'),
  slice: (start, end) => decode(bytes.subarray(start, end)),
  measure: encodedLength,
});

type Tag = { type: 'open' | 'close' | 'empty'; name: string; start: number; end: number };

const startsAt = (text: FeedText, literal: string, i: number) => {
  for (let k = 0; k < literal.length; k++) {
    if (text.code(i + k) !== literal.charCodeAt(k)) return false;
  }
  return true;
};

/**
 * The tags of an XML text in order, from `from`; comments, CDATA, the DOCTYPE and processing
 * instructions are skipped. Ends at a construct cut off by the end of the text.
 */
function* tagsOf(text: FeedText, from: number): Generator<Tag> {
  for (let i = text.find('<', from); i !== -1;) {
    let skipTo = -1;
    if (startsAt(text, '<!--', i)) skipTo = endAfter(text, '-->', i + 4);
    else if (startsAt(text, '<![CDATA[', i)) skipTo = endAfter(text, ']]>', i + 9);
    else if (startsAt(text, '<?', i)) skipTo = endAfter(text, '?>', i + 2);
    else if (startsAt(text, '<!', i)) skipTo = declarationEnd(text, i + 2);
    if (skipTo !== -1 || text.code(i + 1) === 33 || text.code(i + 1) === 63) {
      if (skipTo === -1) return;
      i = text.find('<', skipTo);
      continue;
    }
    const end = tagEnd(text, i + 1);
    if (end === -1) return;
    const closing = text.code(i + 1) === 47; // '/'
    const nameStart = closing ? i + 2 : i + 1;
    let nameEnd = nameStart;
    while (nameEnd < end && !NAME_ENDS.has(text.code(nameEnd))) nameEnd++;
    const empty = !closing && text.code(end - 2) === 47;
    yield {
      type: closing ? 'close' : empty ? 'empty' : 'open',
      name: text.slice(nameStart, nameEnd),
      start: i,
      end,
    };
    i = text.find('<', end);
  }
}

/** Space, tab, line feed, carriage return, '/', '>': what ends a tag's name. */
const NAME_ENDS = new Set([32, 9, 10, 13, 47, 62]);

/** The offset just past `marker` found from `from`, or -1. */
const endAfter = (text: FeedText, marker: string, from: number) => {
  const at = text.find(marker, from);
  return at === -1 ? -1 : at + marker.length;
};

/** The end of `<!DOCTYPE ...>`, past an internal subset in brackets. */
const declarationEnd = (text: FeedText, from: number) => {
  let depth = 0;
  for (let j = from; j < text.length; j++) {
    const c = text.code(j);
    if (c === 91) depth++;
    else if (c === 93) depth--;
    else if (c === 62 && depth <= 0) return j + 1;
  }
  return -1;
};

/** The offset past the `>` that ends the tag begun before `from` (quoted values skipped). */
const tagEnd = (text: FeedText, from: number) => {
  for (let j = from; j < text.length; j++) {
    const c = text.code(j);
    if (c === 62) return j + 1;
    if (c === 34 || c === 39) {
      j = text.find(c === 34 ? '"' : "'", j + 1);
      if (j === -1) return -1;
    }
  }
  return -1;
};

/** `rss:item` and `ITEM` are the item element to the feed reader (it compares local names). */
const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** A place in the text, 1-based as the validator counts (columns in the text's units). */
type LineCol = { line: number; col: number };

/** Counts lines and columns through a text from `start`, forwards only. */
const lineCounter = (text: FeedText, start: number) => {
  let offset = start;
  let line = 1;
  let lineStart = start;
  return (to: number): LineCol => {
    for (let nl = text.find('\n', offset); nl !== -1 && nl < to; nl = text.find('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    offset = Math.max(offset, to);
    return { line, col: to - lineStart + 1 };
  };
};

type Layout = { starts: number[]; ends: number[] };

/**
 * Where the items are: `item` elements of the root (RSS 1.0) or of its first `channel`
 * (RSS 0.9x, 2.0), `entry` elements of an Atom root: the elements the feed reader takes.
 * Tags that do not pair are refused here, in the validator's words, since a piece cut from a
 * misread layout would be read wrong; every other fault is the validator's, piece by piece.
 */
function* layoutOf(text: FeedText, start: number, skippedLines: number): Generator<void, Layout> {
  const starts: number[] = [];
  const ends: number[] = [];
  const open: Tag[] = [];
  let root: string | null = null;
  let channel: Tag | null = null;
  let item: Tag | null = null;
  const fault = (message: string, at: number): never => {
    const { line } = lineCounter(text, start)(at);
    throw new FetchError(
      'parse',
      `the feed is not well-formed XML: ${message} (line ${line + skippedLines})`,
    );
  };
  let scanned = 0;
  for (const tag of tagsOf(text, start)) {
    if (++scanned % SCAN_STEP === 0) yield;
    if (tag.type === 'close') {
      const opened = open.pop();
      if (!opened) fault(`Closing tag '${tag.name}' has not been opened.`, tag.start);
      else if (opened.name !== tag.name) {
        const { line, col } = lineCounter(text, start)(opened.start);
        fault(
          `Expected closing tag '${opened.name}' (opened in line ${line}, col ${col}) ` +
            `instead of closing tag '${tag.name}'.`,
          tag.start,
        );
      }
      if (opened === item) {
        ends.push(tag.end);
        item = null;
      }
      continue;
    }
    const local = localName(tag.name);
    root ??= local;
    const parent = open.at(-1);
    const isItem =
      item === null &&
      ((open.length === 1 && local === (root === 'feed' ? 'entry' : 'item')) ||
        (parent !== undefined && parent === channel && local === 'item' && root !== 'feed'));
    if (open.length === 1 && local === 'channel' && channel === null) channel = tag;
    if (isItem) {
      starts.push(tag.start);
      if (tag.type === 'empty') ends.push(tag.end);
      else item = tag;
    }
    if (tag.type === 'open') open.push(tag);
  }
  // Cut off inside an item (a tag never ended): the validator names the fault in its piece.
  if (item !== null) ends.push(text.length);
  return { starts, ends };
}

/** Tags scanned between turns of the event loop (a 10 MB feed holds about 400,000). */
const SCAN_STEP = 20_000;

/**
 * A feed's first bytes as a document of its own: the text before its first item (else up to
 * the last whole tag read), its open elements closed. For a source's title and site when it is
 * followed, without reading the rest.
 */
export const feedHead = (head: string): string => {
  const text = stringText(head);
  const open: string[] = [];
  let cut = 0;
  let root: string | null = null;
  for (const tag of tagsOf(text, 0)) {
    const local = localName(tag.name);
    if (tag.type !== 'close') {
      root ??= local;
      if (open.length >= 1 && local === (root === 'feed' ? 'entry' : 'item')) {
        cut = tag.start;
        break;
      }
    }
    if (tag.type === 'open') open.push(tag.name);
    else if (tag.type === 'close') open.pop();
    cut = tag.end;
  }
  return (
    head.slice(0, cut) +
    open
      .reverse()
      .map((name) => `</${name}>`)
      .join('')
  );
};

/** A bare "&" (not an entity) is read as text by the lenient reader: only structure counts. */
const repairAmpersands = (text: string) =>
  text.replace(/&(?!#\d+;|#x[\da-f]+;|[a-z][\w.-]*;)/gi, '&amp;');

/**
 * Checks one piece; a fault is reported at its place in the whole text: `at` maps the piece's
 * line and column there, and `skippedLines` is the whitespace before the declaration (not
 * validated, but the user's line numbers count it).
 */
const checkPiece = (piece: string, at: (p: LineCol) => LineCol, skippedLines: number) => {
  const result = XMLValidator.validate(repairAmpersands(piece), { allowBooleanAttributes: true });
  if (result === true) return;
  const { line } = at({ line: result.err.line, col: result.err.col });
  const msg = result.err.msg.replace(
    /\(opened in line (\d+), col (\d+)\)/,
    (_, l: string, c: string) => {
      const opened = at({ line: Number(l), col: Number(c) });
      return `(opened in line ${opened.line}, col ${opened.col})`;
    },
  );
  throw new FetchError(
    'parse',
    `the feed is not well-formed XML: ${msg} (line ${line + skippedLines})`,
  );
};

const SLICE_OPEN = '<feed-items>';
const SLICE_CLOSE = '</feed-items>';

export type FeedPieceOptions = {
  /** Items per document (default 50). */
  itemsPerPiece?: number;
  /** Characters (or bytes) of items per document (default 256 KB): huge items, fewer a piece. */
  charsPerPiece?: number;
};

export type FeedPieces = {
  /** The feed without its items (checked): its own fields, for the source's title. */
  outer: string;
  /** How many items the feed holds. */
  count: number;
  /** Documents of consecutive items with the feed around them, each checked before it is made. */
  pieces(): Generator<string>;
};

/**
 * The most text a feed may have outside its items (its root and channel). It is checked and
 * read at once, and again with every piece, so it is bounded: real channels are a few KB (an
 * RSS 1.0 channel lists its items' addresses, about 70 bytes each).
 */
export const MAX_OUTER = 1024 * 1024;

/**
 * Cuts a feed (`text` from `start`, its root or XML declaration; `skippedLines` of whitespace
 * before it) into checked pieces. A generator that yields between steps of its scan (the
 * caller may let the event loop turn there) and returns the pieces. A piece holds at least as
 * much text of items as the text around them, so a feed with a large channel and many tiny
 * items is not re-read item by item: all pieces together are at most about twice the feed.
 */
export function* feedPieces(
  text: FeedText,
  start: number,
  skippedLines: number,
  opts: FeedPieceOptions = {},
): Generator<void, FeedPieces> {
  const { starts, ends } = yield* layoutOf(text, start, skippedLines);
  const count = starts.length;
  const itemsEnd = count === 0 ? text.length : ends[count - 1];
  const outerSize = (count === 0 ? 0 : starts[0]) - start + (text.length - itemsEnd);
  if (count === 0 ? text.length - start > MAX_OUTER : outerSize > MAX_OUTER) {
    throw new FetchError(
      'parse',
      `the feed has more than ${MAX_OUTER / 1024 / 1024} MB of text outside its items`,
    );
  }
  if (count === 0) {
    const whole = text.slice(start, text.length);
    checkPiece(whole, (p) => p, skippedLines);
    return { outer: whole, count, pieces: function* () {} };
  }
  const prefix = text.slice(start, starts[0]);
  const suffix = text.slice(itemsEnd, text.length);
  const outer = prefix + suffix;
  const lines = lineCounter(text, start);
  const prefixEnd = lines(starts[0]);
  const suffixStart = lines(itemsEnd);
  // The outer piece joins the prefix's last line and the suffix's first: columns on that line
  // past the prefix are the suffix's. (Columns are counted in the piece's characters.)
  const prefixLastLine = prefix.slice(prefix.lastIndexOf('\n') + 1).length;
  checkPiece(
    outer,
    (p) =>
      p.line < prefixEnd.line || (p.line === prefixEnd.line && p.col <= prefixLastLine)
        ? p
        : p.line === prefixEnd.line
          ? { line: suffixStart.line, col: p.col - prefixLastLine + suffixStart.col - 1 }
          : { line: p.line + suffixStart.line - prefixEnd.line, col: p.col },
    skippedLines,
  );
  const itemsPerPiece = opts.itemsPerPiece ?? 50;
  const maxChars = opts.charsPerPiece ?? 256 * 1024;
  function* pieces() {
    const sliceLines = lineCounter(text, start);
    for (let first = 0; first < count;) {
      let last = first;
      // Items up to the next piece's first: whatever lies between items is read once.
      const endOf = (i: number) => (i + 1 < count ? starts[i + 1] : itemsEnd);
      const size = () => endOf(last) - starts[first];
      while (
        last + 1 < count &&
        (size() < outerSize || (last + 1 - first < itemsPerPiece && size() < maxChars))
      ) {
        last++;
      }
      const slice = text.slice(starts[first], endOf(last));
      const origin = sliceLines(starts[first]);
      checkPiece(
        SLICE_OPEN + slice + SLICE_CLOSE,
        (p) =>
          p.line === 1
            ? { line: origin.line, col: p.col - SLICE_OPEN.length + origin.col - 1 }
            : { line: p.line + origin.line - 1, col: p.col },
        skippedLines,
      );
      yield prefix + slice + suffix;
      first = last + 1;
    }
  }
  return { outer, count, pieces };
}
