// A small PDF writer: text in Helvetica (the standard font every reader has), wrapped to the
// page, over as many Letter pages as it needs. Enough for a summary a reader opens in a new
// tab; characters outside WinAnsi (Latin-1 plus typographic punctuation) are written as "?".

const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN = 64;

// Helvetica's advance widths (1/1000 em) for ASCII 32-126, from its AFM.
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

// WinAnsi codes for the punctuation that is not Latin-1.
const WIN_ANSI: Record<string, number> = {
  '\u2018': 0x91,
  '\u2019': 0x92,
  '\u201c': 0x93,
  '\u201d': 0x94,
  '\u2022': 0x95,
  '\u2013': 0x96,
  '\u2014': 0x97,
  '\u2026': 0x85,
  '\u20ac': 0x80,
  '\u2122': 0x99,
  '\u2030': 0x89,
};

function code(ch: string): number {
  const c = ch.codePointAt(0)!;
  if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) return c;
  return WIN_ANSI[ch] ?? 0x3f;
}

function width(text: string, size: number, bold: boolean): number {
  let w = 0;
  for (const ch of text) {
    const c = code(ch);
    w += c >= 32 && c <= 126 ? HELVETICA[c - 32]! : 556;
  }
  return (w * size * (bold ? 1.06 : 1)) / 1000;
}

function escape(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = code(ch);
    if (c === 0x28 || c === 0x29 || c === 0x5c) out += `\\${String.fromCharCode(c)}`;
    else if (c < 0x20 || c > 0x7e) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(c);
  }
  return out;
}

/** A text string outside content streams (the document's title): UTF-16BE with its mark. */
function textString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++)
    hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

function wrap(text: string, size: number, bold: boolean, max: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = cur ? `${cur} ${word}` : word;
    if (cur && width(next, size, bold) > max) {
      lines.push(cur);
      cur = word;
    } else {
      cur = next;
    }
    // A word longer than a line is cut.
    while (width(cur, size, bold) > max && cur.length > 1) {
      let n = cur.length - 1;
      while (n > 1 && width(cur.slice(0, n), size, bold) > max) n--;
      lines.push(cur.slice(0, n));
      cur = cur.slice(n);
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

export interface PdfBlock {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  bold?: boolean;
  /** Start this block on a new page. */
  pageBreak?: boolean;
  /** A table row: these cells in equal columns across the line (`text` is then unused). */
  cells?: string[];
}

/** A PDF of the blocks, each a paragraph, wrapped and paginated. */
export function writePdf(doc: { title?: string; blocks: PdfBlock[] }): Uint8Array {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE_H - MARGIN;
  const newPage = () => {
    if (ops.length) pages.push(ops.join('\n'));
    ops = [];
    y = PAGE_H - MARGIN;
  };
  for (const block of doc.blocks) {
    const size = block.size ?? 11;
    const bold = block.bold ?? false;
    const leading = size * 1.35;
    if (block.pageBreak && ops.length) newPage();
    if (block.cells) {
      const col = (PAGE_W - 2 * MARGIN) / Math.max(1, block.cells.length);
      if (y - leading < MARGIN) newPage();
      y -= leading;
      block.cells.forEach((cell, i) => {
        const fit = wrap(cell, size, bold, col - size * 2)[0] ?? '';
        if (fit) {
          const x = (MARGIN + i * col).toFixed(2);
          ops.push(
            `BT /${bold ? 'F2' : 'F1'} ${size} Tf ${x} ${y.toFixed(2)} Td (${escape(fit)}) Tj ET`,
          );
        }
      });
      continue;
    }
    for (const line of wrap(block.text, size, bold, PAGE_W - 2 * MARGIN)) {
      if (y - leading < MARGIN) newPage();
      y -= leading;
      ops.push(
        `BT /${bold ? 'F2' : 'F1'} ${size} Tf ${MARGIN} ${y.toFixed(2)} Td (${escape(line)}) Tj ET`,
      );
    }
    y -= size * 0.6;
  }
  if (ops.length || pages.length === 0) pages.push(ops.join('\n'));

  // Objects: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info, then page and content pairs.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Producer (needl)${doc.title ? ` /Title ${textString(doc.title)}` : ''} >>`;
  pages.forEach((content, i) => {
    const id = pageIds[i]!;
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  // The page dictionaries together, before the contents: a reader by ranges (the PDF viewer)
  // walks the page tree in a chunk or two, not through the whole file.
  const order = [1, 2, 3, 4, 5, ...pageIds, ...pageIds.map((id) => id + 1)];
  for (const id of order) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++)
    out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character above is one byte (escaped text is ASCII; the marker line is Latin-1).
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i) & 0xff;
  return bytes;
}
