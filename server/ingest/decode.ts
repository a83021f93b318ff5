import iconv from 'iconv-lite';

/**
 * Turns a fetched body into text. Order of authority: a byte-order mark, then the charset of
 * Content-Type, then the document's own declaration (`<?xml encoding="...">`, HTML
 * `<meta charset>` / `http-equiv`), else UTF-8. Publishers still send windows-1252 and
 * ISO-8859-1; iconv-lite decodes every encoding the WHATWG list names (ISO-8859-1 is read as
 * windows-1252, as browsers do: the bytes 0x80-0x9f are curly quotes there, never controls).
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
  return 'utf-8';
};

const normalise = (charset: string): string => {
  const c = charset.toLowerCase();
  return c === 'iso-8859-1' || c === 'latin1' || c === 'us-ascii' || c === 'ascii'
    ? 'windows-1252'
    : c;
};

/** The body as text (BOM removed). */
export const decodeBody = (body: Buffer, contentType: string | null): string => {
  const text = iconv.decode(body, charsetOf(body, contentType));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};
