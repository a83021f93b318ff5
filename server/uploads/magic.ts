/**
 * What a file is by its first bytes (magic numbers), never by its name or declared type:
 * - `pdf`: `%PDF-` within the first 1024 bytes (as readers accept);
 * - `zip`: a ZIP local header (DOCX, PPTX and XLSX are ZIP packages; which one is decided by
 *   extraction from the parts inside);
 * - `ole`: a Compound File header (old .doc, .ppt, .xls);
 * - `text`: no NUL and valid UTF-8 (a character cut at the end of the sample is allowed), or a
 *   UTF-16 BOM;
 * - null: anything else (executables, images, archives of other kinds).
 */
export type ContentFamily = 'pdf' | 'zip' | 'ole' | 'text';

/** Bytes needed to decide. */
export const MAGIC_BYTES = 1024;

const startsWith = (head: Uint8Array, bytes: number[]) => bytes.every((b, i) => head[i] === b);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];

const validUtf8 = (head: Uint8Array, complete: boolean): boolean => {
  let i = 0;
  while (i < head.length) {
    const b = head[i];
    if (b === 0) return false;
    const need =
      b < 0x80
        ? 0
        : b >= 0xc2 && b <= 0xdf
          ? 1
          : (b & 0xf0) === 0xe0
            ? 2
            : b >= 0xf0 && b <= 0xf4
              ? 3
              : -1;
    if (need < 0) return false;
    if (i + need >= head.length && need > 0) return !complete;
    for (let k = 1; k <= need; k++) if ((head[i + k] & 0xc0) !== 0x80) return false;
    i += need + 1;
  }
  return true;
};

/**
 * The family of a file from its first bytes (`complete`: the sample is the whole file, so a
 * cut character at its end is a fault).
 */
export const contentFamily = (head: Uint8Array, complete = false): ContentFamily | null => {
  if (startsWith(head, PDF)) return 'pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return 'text';
  // A PDF may have junk before its header (readers look in the first 1024 bytes).
  const pdfAt = Buffer.from(head.subarray(0, MAGIC_BYTES)).indexOf('%PDF-');
  if (pdfAt > 0) return 'pdf';
  if (head.length > 0 && validUtf8(head, complete)) return 'text';
  return null;
};

export const WRONG_CONTENT =
  "the file's content is not a PDF, Word, PowerPoint, Excel, text or Markdown document";
