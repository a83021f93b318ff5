import { ApiError } from '../errors';

/**
 * HTTP Range requests on a stored file (RFC 9110 §14): one byte range of the download, so the
 * PDF viewer reads only the parts pdf.js asks for (issue 20's viewer figure). `bytes=a-b`,
 * `bytes=a-` and `bytes=-n` (the last n bytes) are served as 206 with Content-Range; several
 * ranges at once are answered with the whole file (200, allowed by §14.2: the viewer asks one
 * at a time). A range that starts past the end is 416 with a Content-Range naming the size;
 * another unit than bytes is ignored (§14.2); a malformed byte range is 400 naming it.
 */

/** An inclusive byte span of a file of `size` bytes. */
export type ByteRange = { start: number; end: number };

/** The Range header's answer: no range (the whole file), one range, or unsatisfiable. */
export type RangeAnswer =
  { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

const SPEC = /^(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const trimmed = header.trim();
  const eq = trimmed.indexOf('=');
  if (eq < 0) throw new ApiError(400, 'bad_request', `Range header "${header}" has no unit`);
  if (trimmed.slice(0, eq).trim().toLowerCase() !== 'bytes') return { kind: 'whole' };
  const specs = trimmed
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim());
  const bad = () => new ApiError(400, 'bad_request', `Range header "${header}" is malformed`);
  const parsed = specs.map((spec) => {
    const m = SPEC.exec(spec);
    if (!m || (m[1] === '' && m[2] === '')) throw bad();
    return { first: m[1] === '' ? null : Number(m[1]), last: m[2] === '' ? null : Number(m[2]) };
  });
  for (const { first, last } of parsed) {
    if (first !== null && last !== null && last < first) throw bad();
    if (
      (first !== null && !Number.isSafeInteger(first)) ||
      (last !== null && !Number.isSafeInteger(last))
    )
      throw bad();
  }
  if (parsed.length > 1) return { kind: 'whole' };
  const { first, last } = parsed[0]!;
  if (first === null) {
    // The last `last` bytes (a suffix of 0 bytes is unsatisfiable).
    if (last === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - last!), end: size - 1 } };
  }
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start: first, end: Math.min(last ?? size - 1, size - 1) } };
}
