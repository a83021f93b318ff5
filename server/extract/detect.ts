// The type of an upload by its content (magic bytes), never by its declared type. The name is
// used only to tell Markdown from plain text and, for old Office files whose head does not
// show which program wrote them, .doc from .ppt from .xls.
//
// `head` may be the whole file or its first bytes (64 KiB is plenty): OOXML packages are told
// apart by their [Content_Types].xml (when it is within `head`) or their part names (the local
// file headers within `head`, and the central directory when `head` is the whole file).

import { inflateSync } from 'fflate';
import type { DetectedType } from './index';

const latin1 = new TextDecoder('latin1');

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

function u16(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)) + b[o + 3]! * 0x1000000;
}

const WORD = 'wordprocessingml.document.main';
const SLIDES = [
  'presentationml.presentation.main',
  'presentationml.slideshow.main',
  'presentationml.template.main',
];
const SHEET = [
  'spreadsheetml.sheet.main',
  'spreadsheetml.template.main',
  'ms-excel.sheet.macroEnabled.main',
];

/** Part names and the [Content_Types].xml text found in a zip's bytes (possibly just its head). */
function zipParts(b: Uint8Array): { names: Set<string>; contentTypes?: string } {
  const names = new Set<string>();
  let contentTypes: string | undefined;
  for (let i = 0; i + 30 <= b.length; i++) {
    if (b[i] !== 0x50 || b[i + 1] !== 0x4b) continue;
    if (b[i + 2] === 0x03 && b[i + 3] === 0x04) {
      const flags = u16(b, i + 6);
      const method = u16(b, i + 8);
      const csize = u32(b, i + 18);
      const nameLen = u16(b, i + 26);
      const extraLen = u16(b, i + 28);
      if (i + 30 + nameLen > b.length) break;
      const name = latin1.decode(b.subarray(i + 30, i + 30 + nameLen));
      names.add(name);
      const start = i + 30 + nameLen + extraLen;
      if (
        name === '[Content_Types].xml' &&
        !(flags & 8) &&
        start + csize <= b.length &&
        csize < 1 << 20
      ) {
        try {
          const raw = b.subarray(start, start + csize);
          contentTypes = latin1.decode(method === 8 ? inflateSync(raw) : raw);
        } catch {
          /* a damaged part: decide by names */
        }
      }
    } else if (b[i + 2] === 0x01 && b[i + 3] === 0x02 && i + 46 <= b.length) {
      const nameLen = u16(b, i + 28);
      if (i + 46 + nameLen <= b.length)
        names.add(latin1.decode(b.subarray(i + 46, i + 46 + nameLen)));
    }
  }
  return { names, contentTypes };
}

function ooxmlType(b: Uint8Array): 'docx' | 'pptx' | 'xlsx' | null {
  const { names, contentTypes } = zipParts(b);
  if (contentTypes) {
    if (contentTypes.includes(WORD)) return 'docx';
    if (SLIDES.some((s) => contentTypes.includes(s))) return 'pptx';
    if (SHEET.some((s) => contentTypes.includes(s))) return 'xlsx';
  }
  const any = (prefix: string) => [...names].some((n) => n.startsWith(prefix));
  if (names.has('word/document.xml') || any('word/')) return 'docx';
  if (names.has('ppt/presentation.xml') || any('ppt/')) return 'pptx';
  if (names.has('xl/workbook.xml') || any('xl/')) return 'xlsx';
  return null;
}

function utf16(s: string): string {
  return [...s].map((c) => c + '\0').join('');
}

function oleType(b: Uint8Array, name: string): 'doc' | 'ppt' | 'xls' {
  const text = latin1.decode(b);
  if (text.includes(utf16('WordDocument'))) return 'doc';
  if (text.includes(utf16('PowerPoint Document'))) return 'ppt';
  if (text.includes(utf16('Workbook')) || text.includes(utf16('Book'))) return 'xls';
  const ext = extension(name);
  if (ext === 'ppt' || ext === 'pps' || ext === 'pot' || ext === 'pptx') return 'ppt';
  if (ext === 'xls' || ext === 'xlt' || ext === 'xlsx') return 'xls';
  return 'doc';
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const MARKDOWN = new Set(['md', 'markdown', 'mdown', 'mkd', 'mkdn']);

/** Valid UTF-8 without NUL (or control bytes other than tab, newline, form feed, carriage return). */
function isText(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13) return false;
  }
  // A head may end inside a character: allow up to 3 bytes of an unfinished sequence.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= Math.min(3, b.length); cut++) {
    try {
      decoder.decode(b.subarray(0, b.length - cut));
      return true;
    } catch {
      /* try without the last byte */
    }
  }
  return false;
}

export function detectType(head: Uint8Array, name: string): DetectedType | null {
  // %PDF- may follow a little junk that is not text (readers allow 1024 bytes).
  const front = latin1.decode(head.subarray(0, 1024));
  if (front.startsWith('%PDF-')) return 'pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return ooxmlType(head);
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return oleType(head, name);
  if (isText(head)) return MARKDOWN.has(extension(name)) ? 'md' : 'txt';
  if (front.includes('%PDF-')) return 'pdf';
  return null;
}
