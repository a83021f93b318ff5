import type { IncomingDocument } from '../documents';

/**
 * Text from the network as both databases store it alike. PostgreSQL refuses NUL in text
 * ("invalid byte sequence for encoding UTF8: 0x00") where SQLite keeps it, so one feed item
 * holding a NUL failed its whole batch on PostgreSQL only; and a lone UTF-16 surrogate (a
 * numeric reference such as `&#xD800;`, or a JSON `\ud800` escape) has no UTF-8 form, which
 * each driver would replace in its own way. Both are cleaned where fetched text enters:
 * the decoded body (decode.ts) and every field of every document read from it (read.ts), since
 * `&#0;` or a JSON `\u0000` only becomes a NUL once parsed.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without NUL, and with each lone surrogate as U+FFFD (the replacement character). */
export const storableText = (text: string): string =>
  text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');

/** Whether `text` holds NUL or a surrogate (paired or not): only then is it looked at closer. */
// eslint-disable-next-line no-control-regex -- NUL is what is looked for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

const clean = <T extends string | null | undefined>(value: T): T =>
  (typeof value === 'string' && SUSPECT.test(value) ? storableText(value) : value) as T;

const FIELDS = [
  'dedupe_key',
  'title',
  'url',
  'html',
  'text',
  'thumbnail',
  'company_name',
  'security_code',
  'security_id',
  'category',
  'secondary_category',
] as const;

/**
 * Every text field of a document read from a source, storable: the document itself when none
 * needs it (the common case costs no copy).
 */
export const storableDocument = (doc: IncomingDocument): IncomingDocument => {
  const dirty =
    FIELDS.some((f) => {
      const v = doc[f];
      return typeof v === 'string' && SUSPECT.test(v);
    }) || doc.categories?.some((c) => SUSPECT.test(c));
  if (!dirty) return doc;
  const out: IncomingDocument = { ...doc, dedupe_key: storableText(doc.dedupe_key) };
  for (const f of FIELDS) {
    if (f !== 'dedupe_key' && doc[f] !== undefined) Object.assign(out, { [f]: clean(doc[f]) });
  }
  if (doc.categories) out.categories = doc.categories.map(storableText);
  return out;
};
