// extractDocument: the type by content (detect.ts), then the reader for it. Every failure is a
// reason in words for the user, never an exception.

import { detectType } from './detect';
import type { ExtractResult } from './index';
import { coreTitle, extractDocx, extractPptx, extractXlsx } from './ooxml';
import { extractPdf } from './pdf';
import { decodeText, extractMarkdown, extractPlain } from './text';
import { ZipError, ZipReader } from './zip';

export const NOT_SUPPORTED =
  'The file is not a PDF, Word, PowerPoint, Excel, text or Markdown file.';
export const OLD_OFFICE =
  'Old Word/PowerPoint/Excel files (.doc/.ppt/.xls) cannot be read; save it as .docx/.pptx/.xlsx and upload again.';
export const ENCRYPTED_OFFICE =
  'The file is password-protected; remove the password and upload it again.';
export const NO_TEXT =
  'No text found in the file (a scanned PDF needs text recognition, which is not available)';

const PROGRAM = { docx: 'Word', pptx: 'PowerPoint', xlsx: 'Excel' } as const;

/** How much of a file decides its type. */
const HEAD_BYTES = 1 << 20;

/** The stream name an encrypted Office file holds, as UTF-16LE. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

export async function extractDocument(
  input: Uint8Array,
  meta: { name: string; mimeType?: string },
): Promise<ExtractResult> {
  if (input.length === 0) return { ok: false, reason: 'The file is empty.' };
  // The head decides (a zip's [Content_Types].xml comes first; text is checked whole below).
  const type = detectType(input.subarray(0, HEAD_BYTES), meta.name);
  if (type === null) return { ok: false, reason: NOT_SUPPORTED };
  if (type === 'doc' || type === 'ppt' || type === 'xls') {
    // A password-protected .docx/.pptx/.xlsx is an OLE2 file holding an EncryptedPackage.
    if (Buffer.from(input.buffer, input.byteOffset, input.byteLength).includes(ENCRYPTED_PACKAGE)) {
      return { ok: false, reason: ENCRYPTED_OFFICE };
    }
    return { ok: false, reason: OLD_OFFICE };
  }
  if (type === 'pdf') {
    const r = await extractPdf(input);
    return r.ok
      ? { ok: true, kind: 'pdf', title: r.title, pages: r.pages, passages: r.passages }
      : r;
  }
  if (type === 'txt' || type === 'md') {
    let text: string;
    try {
      text = decodeText(input);
    } catch {
      return { ok: false, reason: NOT_SUPPORTED };
    }
    const r =
      type === 'md' ? extractMarkdown(text) : { title: undefined, passages: extractPlain(text) };
    if (r.passages.length === 0) return { ok: false, reason: NO_TEXT };
    return { ok: true, kind: type, title: r.title, passages: r.passages };
  }
  try {
    const zip = new ZipReader(input);
    const r =
      type === 'docx' ? extractDocx(zip) : type === 'pptx' ? extractPptx(zip) : extractXlsx(zip);
    if (typeof r === 'string') return { ok: false, reason: r };
    const passages = Array.isArray(r) ? r : r.passages;
    if (passages.length === 0) return { ok: false, reason: NO_TEXT };
    const title = coreTitle(zip);
    return Array.isArray(r)
      ? { ok: true, kind: type, title, passages }
      : { ok: true, kind: type, title, pages: r.pages, passages };
  } catch (err) {
    if (err instanceof ZipError) {
      const what = err.message;
      return { ok: false, reason: `The ${PROGRAM[type]} file cannot be read: ${what}.` };
    }
    return { ok: false, reason: `The ${PROGRAM[type]} file is damaged and cannot be read.` };
  }
}
