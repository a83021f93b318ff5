// DOCX, PPTX and XLSX: the parts that hold text, read through the package's relationships (so
// transitional and strict files, and parts under unusual names, read alike).

import { chunkParagraphs, clean, tableRowText } from './chunk';
import type { ExtractedPassage } from './index';
import { attr, readRels, resolvePart, xmlEvents } from './xml';
import type { ZipReader } from './zip';

type Block = { type: 'para'; text: string } | { type: 'row'; cells: string[]; first: boolean };

/**
 * Paragraphs and table rows of a WordprocessingML or DrawingML part, in document order. Both
 * name them alike by local name: p, t, tab, br, tbl, tr, tc. mc:Fallback copies (a text box
 * written twice for old readers) are skipped; a table inside a table cell is read as the
 * cell's text.
 */
export function blocks(xml: string): Block[] {
  const out: Block[] = [];
  const paras: string[] = [];
  let inText = 0;
  let skip = 0;
  let tableDepth = 0;
  let row: string[] | null = null;
  let cell: string | null = null;
  let rowIndex = 0;
  for (const ev of xmlEvents(xml)) {
    if (ev.type === 'open' && ev.name === 'Fallback' && !ev.selfClosing) {
      skip++;
      continue;
    }
    if (ev.type === 'close' && ev.name === 'Fallback') {
      skip = Math.max(0, skip - 1);
      continue;
    }
    if (skip > 0) continue;
    if (ev.type === 'text') {
      if (inText > 0 && paras.length > 0) paras[paras.length - 1] += ev.text;
      continue;
    }
    if (ev.type === 'open') {
      switch (ev.name) {
        case 't':
          if (!ev.selfClosing) inText++;
          break;
        case 'p':
          if (!ev.selfClosing) paras.push('');
          break;
        case 'tab':
          if (paras.length > 0 && inText === 0) paras[paras.length - 1] += '\t';
          break;
        case 'br':
        case 'cr':
          if (paras.length > 0) paras[paras.length - 1] += '\n';
          break;
        case 'tbl':
          if (!ev.selfClosing && ++tableDepth === 1) rowIndex = 0;
          break;
        case 'tr':
          if (tableDepth === 1 && !ev.selfClosing) row = [];
          break;
        case 'tc':
          if (tableDepth === 1 && row && !ev.selfClosing) cell = '';
          else if (tableDepth === 1 && row) row.push('');
          break;
      }
      continue;
    }
    switch (ev.name) {
      case 't':
        inText = Math.max(0, inText - 1);
        break;
      case 'p': {
        const text = paras.pop() ?? '';
        if (cell !== null) cell = cell ? `${cell} ${text}` : text;
        else out.push({ type: 'para', text });
        break;
      }
      case 'tc':
        if (tableDepth === 1 && row && cell !== null) {
          row.push(clean(cell));
          cell = null;
        }
        break;
      case 'tr':
        if (tableDepth === 1 && row) {
          if (row.some((c) => c)) out.push({ type: 'row', cells: row, first: rowIndex++ === 0 });
          row = null;
        }
        break;
      case 'tbl':
        tableDepth = Math.max(0, tableDepth - 1);
        break;
    }
  }
  return out;
}

/** Blocks into passages: paragraphs chunked, table rows one passage each with their header. */
function passagesOf(bs: Block[], page: number | undefined, into: ExtractedPassage[]): void {
  let paras: string[] = [];
  let header: string[] | undefined;
  const flush = () => {
    for (const text of chunkParagraphs(paras))
      into.push(page === undefined ? { text, kind: 'text' } : { text, page, kind: 'text' });
    paras = [];
  };
  for (const b of bs) {
    if (b.type === 'para') {
      paras.push(b.text);
      continue;
    }
    flush();
    if (b.first) header = b.cells;
    const text = tableRowText(b.first ? undefined : header, b.cells);
    if (clean(text))
      into.push(
        page === undefined ? { text, kind: 'table-row' } : { text, page, kind: 'table-row' },
      );
  }
  flush();
}

/** The main part of the package (the officeDocument relationship), else the usual name. */
function mainPart(zip: ZipReader, fallback: string): string | undefined {
  const rels = zip.text('_rels/.rels');
  if (rels) {
    for (const r of readRels(rels).values()) {
      if (r.type.endsWith('/officeDocument') && !r.external) {
        const part = resolvePart('', r.target);
        if (zip.has(part)) return part;
      }
    }
  }
  return zip.has(fallback) ? fallback : undefined;
}

function relsOf(zip: ZipReader, part: string) {
  const dir = part.includes('/') ? part.slice(0, part.lastIndexOf('/') + 1) : '';
  const file = part.slice(dir.length);
  const xml = zip.text(`${dir}_rels/${file}.rels`);
  return xml
    ? readRels(xml)
    : new Map<string, { target: string; type: string; external: boolean }>();
}

export function coreTitle(zip: ZipReader): string | undefined {
  const xml = zip.text('docProps/core.xml');
  if (!xml) return undefined;
  let inTitle = false;
  let title = '';
  for (const ev of xmlEvents(xml)) {
    if (ev.type === 'open' && ev.name === 'title' && !ev.selfClosing) inTitle = true;
    else if (ev.type === 'close' && ev.name === 'title') inTitle = false;
    else if (ev.type === 'text' && inTitle) title += ev.text;
  }
  return clean(title) || undefined;
}

export function extractDocx(zip: ZipReader): ExtractedPassage[] | string {
  const main = mainPart(zip, 'word/document.xml');
  if (!main) return 'The Word file has no document part; it is damaged.';
  const passages: ExtractedPassage[] = [];
  passagesOf(blocks(zip.text(main) ?? ''), undefined, passages);
  // Footnotes and endnotes after the body, as a reader meets them.
  for (const r of relsOf(zip, main).values()) {
    if (r.external) continue;
    if (r.type.endsWith('/footnotes') || r.type.endsWith('/endnotes')) {
      const xml = zip.text(resolvePart(main, r.target));
      if (xml) passagesOf(blocks(xml), undefined, passages);
    }
  }
  return passages;
}

export function extractPptx(
  zip: ZipReader,
): { passages: ExtractedPassage[]; pages: number } | string {
  const main = mainPart(zip, 'ppt/presentation.xml');
  if (!main) return 'The PowerPoint file has no presentation part; it is damaged.';
  const rels = relsOf(zip, main);
  const slides: string[] = [];
  for (const ev of xmlEvents(zip.text(main) ?? '')) {
    if (ev.type === 'open' && ev.name === 'sldId') {
      const id = relId(ev.attrs);
      const rel = id ? rels.get(id) : undefined;
      if (rel && !rel.external) slides.push(resolvePart(main, rel.target));
    }
  }
  const passages: ExtractedPassage[] = [];
  slides.forEach((part, i) => {
    const xml = zip.text(part);
    if (xml) passagesOf(blocks(xml), i + 1, passages);
  });
  return { passages, pages: slides.length };
}

/** The relationship id of an element (`r:id`, whatever the prefix), not its own `id`. */
function relId(attrs: string): string | undefined {
  return /(?:^|\s)[\w.-]+:id\s*=\s*["']([^"']*)["']/.exec(attrs)?.[1];
}

function columnIndex(ref: string | undefined, fallback: number): number {
  const m = ref ? /^([A-Z]+)/i.exec(ref) : null;
  if (!m) return fallback;
  let n = 0;
  for (const ch of m[1]!.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function sharedStrings(xml: string | undefined): string[] {
  const out: string[] = [];
  if (!xml) return out;
  let cur: string | null = null;
  let inT = 0;
  let inPhonetic = 0;
  for (const ev of xmlEvents(xml)) {
    if (ev.type === 'open') {
      if (ev.name === 'si') cur = ev.selfClosing ? (out.push(''), null) : '';
      else if (ev.name === 'rPh' && !ev.selfClosing) inPhonetic++;
      else if (ev.name === 't' && !ev.selfClosing) inT++;
    } else if (ev.type === 'close') {
      if (ev.name === 'si' && cur !== null) {
        out.push(cur);
        cur = null;
      } else if (ev.name === 'rPh') inPhonetic--;
      else if (ev.name === 't') inT--;
    } else if (cur !== null && inT > 0 && inPhonetic === 0) {
      cur += ev.text;
    }
  }
  return out;
}

/** A sheet's rows as arrays of cell texts (gaps filled with ''). */
function* sheetRows(xml: string, strings: string[]): Generator<string[]> {
  let row: string[] | null = null;
  let col = 0;
  let cellType = '';
  let cellCol = 0;
  let value = '';
  let inValue = 0;
  let inCell = false;
  for (const ev of xmlEvents(xml)) {
    if (ev.type === 'open') {
      if (ev.name === 'row') {
        row = [];
        col = 0;
        if (ev.selfClosing) {
          row = null;
        }
      } else if (ev.name === 'c' && row) {
        cellCol = columnIndex(attr(ev.attrs, 'r'), col);
        cellType = attr(ev.attrs, 't') ?? 'n';
        value = '';
        inCell = !ev.selfClosing;
        col = cellCol + 1;
      } else if (inCell && (ev.name === 'v' || ev.name === 't') && !ev.selfClosing) {
        inValue++;
      }
    } else if (ev.type === 'close') {
      if ((ev.name === 'v' || ev.name === 't') && inValue > 0) inValue--;
      else if (ev.name === 'c' && row && inCell) {
        inCell = false;
        let text = value;
        if (cellType === 's') text = strings[Number(value)] ?? '';
        else if (cellType === 'b') text = value === '1' ? 'TRUE' : 'FALSE';
        text = clean(text);
        if (text) {
          while (row.length < cellCol) row.push('');
          row[cellCol] = text;
        }
      } else if (ev.name === 'row' && row) {
        yield row;
        row = null;
      }
    } else if (inValue > 0) {
      value += ev.text;
    }
  }
}

export function extractXlsx(
  zip: ZipReader,
): { passages: ExtractedPassage[]; pages: number } | string {
  const main = mainPart(zip, 'xl/workbook.xml');
  if (!main) return 'The Excel file has no workbook part; it is damaged.';
  const rels = relsOf(zip, main);
  let strings: string[] = [];
  for (const r of rels.values()) {
    if (r.type.endsWith('/sharedStrings') && !r.external)
      strings = sharedStrings(zip.text(resolvePart(main, r.target)));
  }
  const sheets: { name: string; part: string }[] = [];
  for (const ev of xmlEvents(zip.text(main) ?? '')) {
    if (ev.type === 'open' && ev.name === 'sheet') {
      const id = relId(ev.attrs);
      const rel = id ? rels.get(id) : undefined;
      if (rel && !rel.external)
        sheets.push({ name: attr(ev.attrs, 'name') ?? '', part: resolvePart(main, rel.target) });
    }
  }
  const passages: ExtractedPassage[] = [];
  sheets.forEach((sheet, i) => {
    const xml = zip.text(sheet.part);
    if (!xml) return;
    let header: string[] | undefined;
    for (const row of sheetRows(xml, strings)) {
      if (!row.some((c) => c)) continue;
      const text = tableRowText(header, row);
      passages.push({ text, page: i + 1, kind: 'table-row' });
      header ??= row;
    }
  });
  return { passages, pages: sheets.length };
}
