import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { storableText } from './clean-text';

/**
 * Turns a fetched body into text. Order of authority: a byte-order mark, then the charset of
 * Content-Type, then the document's own declaration (`<?xml encoding="...">`, HTML
 * `<meta charset>` / `http-equiv`), else UTF-8 when the bytes read as UTF-8 (readsAsUtf8),
 * else windows-1252: a Latin-1 feed that declares nothing is common, and read as UTF-8 its
 * "é" would be U+FFFD. Publishers still send windows-1252 and ISO-8859-1; iconv-lite decodes
 * every encoding the WHATWG list names (ISO-8859-1 is read as windows-1252, as browsers do:
 * the bytes 0x80-0x9f are curly quotes there, never controls).
 */
export const charsetOf = (body: Buffer, contentType: string | null): string => {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const header = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (header && iconv.encodingExists(header)) return normalise(header);
  // The declaration sits in the first bytes, in ASCII whatever the encoding.
  const head = body.subarray(0, 2048).toString('latin1');
  const declared =
    /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (declared && iconv.encodingExists(declared)) return normalise(declared);
  return readsAsUtf8(body) ? 'utf-8' : 'windows-1252';
};

/** The length of the UTF-8 sequence a lead byte starts (0: not a lead byte). */
const sequenceLength = (byte: number): number =>
  byte >= 0xc2 && byte <= 0xdf
    ? 2
    : byte >= 0xe0 && byte <= 0xef
      ? 3
      : byte >= 0xf0 && byte <= 0xf4
        ? 4
        : 0;

/**
 * Whether undeclared bytes are UTF-8: valid UTF-8, or more well-formed multi-byte sequences
 * than faults (a UTF-8 body with a stray byte stays UTF-8, with one U+FFFD; Latin-1 text has
 * next to no well-formed sequences: "é" is 0xe9 followed by a letter).
 */
export const readsAsUtf8 = (body: Buffer): boolean => {
  if (isUtf8(body)) return true;
  let sequences = 0;
  let faults = 0;
  for (let i = 0; i < body.length;) {
    if (body[i] < 0x80) {
      i++;
      continue;
    }
    const n = sequenceLength(body[i]);
    let ok = n > 0 && i + n <= body.length;
    for (let k = 1; ok && k < n; k++) ok = (body[i + k] & 0xc0) === 0x80;
    if (ok) {
      sequences++;
      i += n;
    } else {
      faults++;
      i++;
    }
  }
  return sequences > faults;
};

const normalise = (charset: string): string => {
  const c = charset.toLowerCase();
  return c === 'iso-8859-1' || c === 'latin1' || c === 'us-ascii' || c === 'ascii'
    ? 'windows-1252'
    : c;
};

/**
 * The body as text (BOM removed), storable by every database (clean-text.ts): NUL, which
 * PostgreSQL refuses in text and no feed, page or filing means, is dropped here, at the edge.
 */
export const decodeBody = (body: Buffer, contentType: string | null): string => {
  const decoded = iconv.decode(body, charsetOf(body, contentType));
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  return text.includes('\u0000') ? storableText(text) : text;
};

/**
 * Charsets whose characters may take bytes that read as ASCII (UTF-16 and UTF-32, UCS, UTF-7,
 * the ISO-2022 family, HZ): a body in one cannot be cut at a `<` byte.
 */
const CUT_UNSAFE = /^(?:utf-?(?:16|32)|ucs-?[24]|utf-?7|iso-?2022|hz)/i;

export type PieceDecoder = {
  /** Where the text starts (past a UTF-8 byte-order mark). */
  start: number;
  /** A piece of the body as text, storable (NUL dropped, as decodeBody does). */
  decode(piece: Buffer): string;
  /** How many bytes `text` takes in the body's charset. */
  encodedLength(text: string): number;
};

/**
 * How to read a body a piece at a time (feed-split.ts), cut at tags: its charset decided once
 * for the whole body as decodeBody decides it. Null for a charset that cannot be cut so
 * (CUT_UNSAFE): such a body is decoded whole.
 */
export const pieceDecoder = (body: Buffer, contentType: string | null): PieceDecoder | null => {
  const charset = charsetOf(body, contentType);
  if (CUT_UNSAFE.test(charset)) return null;
  const utf8 = charset === 'utf-8' || charset === 'utf8';
  const storable = (text: string) => (text.includes('\u0000') ? storableText(text) : text);
  return {
    start: utf8 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0,
    decode: utf8
      ? (piece) => storable(piece.toString('utf8'))
      : (piece) => storable(iconv.decode(piece, charset)),
    encodedLength: utf8
      ? (text) => Buffer.byteLength(text, 'utf8')
      : (text) => iconv.encode(text, charset).length,
  };
};
