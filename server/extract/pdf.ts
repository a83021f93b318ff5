// PDF text with positions, through pdf.js (unpdf's build). Page by page: a page's text items
// are read, made into lines and paragraphs, and released before the next page is read, so a
// long document costs its bytes plus one page.
//
// Boxes are [x0, y0, x1, y1] in PDF points from the page's top-left corner (the page as
// displayed: its crop box and rotation applied), the convention of server/extract/index.ts.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getDocumentProxy } from 'unpdf';
import { chunkParagraphs, clean, MAX_CHARS, TARGET_CHARS } from './chunk';
import type { ExtractedPassage } from './index';

type Box = [number, number, number, number];

export interface PdfItem {
  text: string;
  box: Box;
  size: number;
  eol: boolean;
}

export interface PdfLine {
  text: string;
  box: Box;
  size: number;
  /** The line's pieces (a gap of more than a few spaces starts a new piece: table cells). */
  cells: { text: string; box: Box }[];
}

export interface PdfPageText {
  page: number;
  width: number;
  height: number;
  lines: PdfLine[];
}

export class PdfError extends Error {}

const NO_TEXT =
  'No text found in the file (a scanned PDF needs text recognition, which is not available)';

function union(a: Box, b: Box): Box {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function round(b: Box): Box {
  return b.map((v) => Math.round(v * 100) / 100) as Box;
}

/** Whether the bytes end as a PDF must (%%EOF in the last 4 KiB): a cut-off upload does not. */
export function endsLikePdf(data: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(data.subarray(Math.max(0, data.length - 4096)));
  return tail.includes('%%EOF');
}

/** The reason in words for pdf.js's error. */
function reasonOf(err: unknown): string {
  const name = (err as { name?: string } | null)?.name ?? '';
  if (name === 'PasswordException')
    return 'The PDF is password-protected; remove the password and upload it again.';
  if (name === 'InvalidPDFException') return 'The PDF is damaged and cannot be read.';
  if (err instanceof PdfError) return err.message;
  return 'The PDF is damaged and cannot be read.';
}

type PdfDoc = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * pdf.js's character maps (CJK fonts: Japanese, Chinese, Korean text reads as nothing without
 * them) and standard font data, read from the pdfjs-dist package's files. unpdf's build of
 * pdf.js cannot fetch file: URLs, so pdf.js is given this factory; a name from the PDF is taken
 * only as a plain file name inside those folders.
 */
const PDFJS_DIR = (() => {
  try {
    return dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  } catch {
    return null;
  }
})();

class PackageDataFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const folder =
      kind === 'cMapUrl' ? 'cmaps' : kind === 'standardFontDataUrl' ? 'standard_fonts' : null;
    if (!folder || !PDFJS_DIR || !/^[A-Za-z0-9._-]+$/.test(filename) || filename.startsWith('.')) {
      throw new Error(`no ${kind} data ${filename}`);
    }
    return new Uint8Array(await readFile(join(PDFJS_DIR, folder, filename)));
  }
}

const DATA_OPTIONS = PDFJS_DIR
  ? {
      BinaryDataFactory: PackageDataFactory,
      cMapUrl: `${pathToFileURL(join(PDFJS_DIR, 'cmaps'))}/`,
      cMapPacked: true,
      standardFontDataUrl: `${pathToFileURL(join(PDFJS_DIR, 'standard_fonts'))}/`,
    }
  : {};

export async function openPdf(data: Uint8Array): Promise<PdfDoc> {
  if (!endsLikePdf(data))
    throw new PdfError(
      'The PDF is incomplete (it was cut short, perhaps by an interrupted upload); upload the whole file again.',
    );
  // pdf.js may take the buffer over; give it a copy so the caller's bytes stay usable.
  return getDocumentProxy(data.slice(), {
    verbosity: 0,
    isEvalSupported: false,
    stopAtErrors: false,
    ...DATA_OPTIONS,
  });
}

/** One page's lines, top to bottom as the content gives them. */
export async function pageText(pdf: PdfDoc, pageNumber: number): Promise<PdfPageText> {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: PdfItem[] = [];
    for (const it of content.items) {
      if (!('str' in it)) continue;
      const [a, b, c, d, e, f] = it.transform as number[];
      const size = Math.hypot(c!, d!) || Math.hypot(a!, b!) || it.height || 1;
      if (!it.str && !it.hasEOL) continue;
      // The text's rectangle in user space (along its direction, from a little below the
      // baseline to the top of the letters), then through the viewport to top-left points.
      const h = it.height || size;
      const len = Math.hypot(a!, b!);
      const ux = len > 0 ? a! / len : 1;
      const uy = len > 0 ? b! / len : 0;
      const corners: [number, number][] = [];
      for (const u of [0, it.width]) {
        for (const v of [-0.22 * h, 0.9 * h]) {
          corners.push(
            viewport.convertToViewportPoint(e! + ux * u - uy * v, f! + uy * u + ux * v) as [
              number,
              number,
            ],
          );
        }
      }
      const xs = corners.map((p) => p[0]);
      const ys = corners.map((p) => p[1]);
      items.push({
        text: it.str,
        box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
        size,
        eol: it.hasEOL,
      });
    }
    return {
      page: pageNumber,
      width: viewport.width,
      height: viewport.height,
      lines: toLines(items),
    };
  } finally {
    page.cleanup();
  }
}

/** Items into lines: a new line at an end of line, a change of baseline, or a step back. */
export function toLines(items: PdfItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let cur: PdfLine | null = null;
  let prev: PdfItem | null = null;
  let breakNext = false;
  for (const it of items) {
    if (!it.text.trim()) {
      if (it.eol) breakNext = true;
      else if (cur && it.text) {
        cur.text += ' ';
        cur.cells[cur.cells.length - 1]!.text += ' ';
      }
      continue;
    }
    if (cur && prev) {
      const mid = (x: Box) => (x[1] + x[3]) / 2;
      const sameLine =
        !breakNext &&
        Math.abs(mid(it.box) - mid(prev.box)) < Math.max(it.size, prev.size) * 0.5 &&
        it.box[0] > prev.box[0] - prev.size;
      if (!sameLine) {
        if (cur.text.trim()) lines.push(cur);
        cur = null;
      }
    }
    breakNext = it.eol;
    if (!cur) {
      cur = { text: it.text, box: it.box, size: it.size, cells: [{ text: it.text, box: it.box }] };
    } else {
      const gap = it.box[0] - cur.box[2];
      const cell = cur.cells[cur.cells.length - 1]!;
      const joint = (t: string) =>
        gap > it.size * 0.15 && !/\s$/.test(t) && !/^\s/.test(it.text) ? ' ' : '';
      if (gap > it.size * 1.2) {
        cur.cells.push({ text: it.text, box: it.box });
      } else {
        cell.text += joint(cell.text) + it.text;
        cell.box = union(cell.box, it.box);
      }
      cur.text += joint(cur.text) + it.text;
      cur.box = union(cur.box, it.box);
      cur.size = Math.max(cur.size, it.size);
    }
    prev = it;
  }
  if (cur && cur.text.trim()) lines.push(cur);
  for (const l of lines) {
    l.text = clean(l.text);
    for (const c of l.cells) c.text = clean(c.text);
    l.cells = l.cells.filter((c) => c.text);
  }
  return lines;
}

interface Para {
  lines: PdfLine[];
}

/** Lines into paragraphs: a wider gap, a jump up (next column), or a change of size starts one. */
function toParagraphs(lines: PdfLine[]): Para[] {
  const paras: Para[] = [];
  let cur: Para | null = null;
  for (const line of lines) {
    const last: PdfLine | undefined = cur?.lines[cur.lines.length - 1];
    if (cur && last) {
      const lh = Math.max(last.box[3] - last.box[1], line.box[3] - line.box[1]);
      const gap = line.box[1] - last.box[3];
      const jumpUp = line.box[1] < last.box[1] - lh * 0.3;
      const sizeChange = Math.abs(line.size - last.size) > Math.max(line.size, last.size) * 0.2;
      const apart = line.box[0] > last.box[2] || line.box[2] < last.box[0];
      if (gap > lh * 0.7 || jumpUp || sizeChange || apart) {
        paras.push(cur);
        cur = null;
      }
    }
    if (!cur) cur = { lines: [] };
    cur.lines.push(line);
  }
  if (cur) paras.push(cur);
  return paras;
}

/** Scripts written without spaces between words (Chinese, Japanese) and their punctuation. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

function joinLines(a: string, b: string): string {
  if (!a) return b;
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a.slice(0, -1) + b;
  // A line of Japanese or Chinese goes on in the next without a space.
  if (CJK.test(a.slice(-1)) && CJK.test(b.charAt(0))) return a + b;
  return `${a} ${b}`;
}

/** A page's paragraphs into passages with boxes: short ones joined, long ones cut at lines. */
export function pagePassages(p: PdfPageText): ExtractedPassage[] {
  const out: ExtractedPassage[] = [];
  let text = '';
  let box: Box | null = null;
  let lastLine: PdfLine | null = null;
  const emit = () => {
    const t = clean(text);
    if (t && box) {
      // A run-on text (no sentence ends) still keeps to the size of a passage.
      for (const piece of t.length > MAX_CHARS * 2 ? chunkParagraphs([t]) : [t]) {
        out.push({
          text: piece,
          page: p.page,
          box: round(box),
          pageWidth: p.width,
          pageHeight: p.height,
          kind: 'text',
        });
      }
    }
    text = '';
    box = null;
  };
  for (const para of toParagraphs(p.lines)) {
    const first = para.lines[0]!;
    // Join a short paragraph (a heading, a lone line) to the next only when it sits right above it.
    if (text && lastLine) {
      const lh = lastLine.box[3] - lastLine.box[1];
      const near = first.box[1] - lastLine.box[3] < lh * 2 && first.box[1] >= lastLine.box[1];
      if (
        !near ||
        text.length + 1 + para.lines.reduce((n, l) => n + l.text.length + 1, 0) > TARGET_CHARS
      )
        emit();
    }
    for (const line of para.lines) {
      if (text.length >= TARGET_CHARS && /[.!?:;]["')\u2019\u201d]?$/.test(text)) emit();
      else if (text.length >= MAX_CHARS) emit();
      text = joinLines(text, line.text);
      box = box ? union(box, line.box) : line.box;
      lastLine = line;
    }
    if (text.length >= 200) emit();
  }
  emit();
  return out;
}

export async function extractPdf(
  data: Uint8Array,
): Promise<
  | { ok: true; title?: string; pages: number; passages: ExtractedPassage[] }
  | { ok: false; reason: string }
> {
  let pdf: PdfDoc;
  try {
    pdf = await openPdf(data);
  } catch (err) {
    return { ok: false, reason: reasonOf(err) };
  }
  try {
    let title: string | undefined;
    try {
      const meta = await pdf.getMetadata();
      const t = (meta.info as { Title?: unknown } | undefined)?.Title;
      if (typeof t === 'string' && clean(t)) title = clean(t);
    } catch {
      /* no metadata */
    }
    const passages: ExtractedPassage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      passages.push(...pagePassages(await pageText(pdf, n)));
    }
    if (passages.length === 0) return { ok: false, reason: NO_TEXT };
    return { ok: true, title, pages: pdf.numPages, passages };
  } catch (err) {
    return { ok: false, reason: reasonOf(err) };
  } finally {
    await pdf.destroy();
  }
}
