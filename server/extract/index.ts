// Text extraction for uploaded documents (issue 20 items 3, 4, 6).
//
// extractDocument reads a file's bytes, decides its type by content (detectType) and returns
// its text as passages. Coordinates: `box` is [x0, y0, x1, y1] in PDF points (1/72 inch)
// measured from the page's TOP-LEFT corner (y grows downwards), x0 < x1 and y0 < y1;
// `pageWidth` and `pageHeight` are the page's size in the same points. Only PDF passages
// carry a box. `page` is 1-based: the PDF page, or the slide for PPTX; DOCX, TXT and MD
// passages have none; XLSX rows carry their sheet's number (1-based) as `page`.
// `kind: 'table-row'` marks a spreadsheet row (or a PDF/DOCX table row) given with its
// header row's context.

export type ExtractKind = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'txt' | 'md';
export type DetectedType = ExtractKind | 'doc' | 'ppt' | 'xls';

export interface ExtractedPassage {
  text: string;
  page?: number;
  /** [x0, y0, x1, y1] in PDF points from the page's top-left corner. */
  box?: [number, number, number, number];
  pageWidth?: number;
  pageHeight?: number;
  kind?: 'text' | 'table-row';
}

export type ExtractResult =
  | { ok: true; kind: ExtractKind; title?: string; pages?: number; passages: ExtractedPassage[] }
  | { ok: false; reason: string };

export { detectType } from './detect';
export { extractDocument } from './extract';
export { pdfPageTables, type PageTables } from './tables';
