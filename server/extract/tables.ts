// The tables of a PDF page (C55 /ml/table-extraction), from text positions alone: a table is a
// run of at least two consecutive lines that each fall into two or more cells (text apart by
// a wide gap, pdf.ts toLines), whose cells are put in columns by where they overlap across the
// run. Ruling lines are not read; a text-only grid is enough for the figures tables of
// filings and broker reports.

import type { ExtractedTable } from '../../contract/extract';
import { openPdf, pageText, PdfError, type PdfLine } from './pdf';

type Box = [number, number, number, number];

/** Column bands: the x ranges where the run's cells overlap, left to right. */
function columns(lines: PdfLine[]): Array<[number, number]> {
  const spans = lines
    .flatMap((l) => l.cells.map((c) => [c.box[0], c.box[2]] as [number, number]))
    .sort((a, b) => a[0] - b[0]);
  const bands: Array<[number, number]> = [];
  for (const [x0, x1] of spans) {
    const last = bands[bands.length - 1];
    if (last && x0 < last[1]) last[1] = Math.max(last[1], x1);
    else bands.push([x0, x1]);
  }
  return bands;
}

function tableOf(lines: PdfLine[]): ExtractedTable | null {
  const bands = columns(lines);
  if (bands.length < 2) return null;
  const rows = lines.map((line) => {
    const row = bands.map(() => '');
    for (const cell of line.cells) {
      const mid = (cell.box[0] + cell.box[2]) / 2;
      let i = bands.findIndex(([a, b]) => mid >= a && mid <= b);
      if (i < 0) i = bands.findIndex(([a, b]) => cell.box[0] < b && cell.box[2] > a);
      if (i < 0) continue;
      row[i] = row[i] ? `${row[i]} ${cell.text}` : cell.text;
    }
    return row;
  });
  const box = lines
    .map((l) => l.box)
    .reduce<Box>(
      (a, b) => [
        Math.min(a[0], b[0]),
        Math.min(a[1], b[1]),
        Math.max(a[2], b[2]),
        Math.max(a[3], b[3]),
      ],
      [Infinity, Infinity, -Infinity, -Infinity],
    );
  return { box: box.map((v) => Math.round(v * 100) / 100) as Box, rows };
}

/** The tables among a page's lines. */
export function tablesOfLines(lines: PdfLine[]): ExtractedTable[] {
  const tables: ExtractedTable[] = [];
  let run: PdfLine[] = [];
  const end = () => {
    if (run.length >= 2) {
      const t = tableOf(run);
      if (t) tables.push(t);
    }
    run = [];
  };
  for (const line of lines) {
    const last = run[run.length - 1];
    const lh = last ? last.box[3] - last.box[1] : 0;
    const near = last ? line.box[1] >= last.box[1] && line.box[1] - last.box[3] < lh * 2.5 : true;
    if (line.cells.length >= 2 && near) run.push(line);
    else {
      end();
      if (line.cells.length >= 2) run.push(line);
    }
  }
  end();
  return tables;
}

export type PageTables = {
  num_pages: number;
  page_width: number;
  page_height: number;
  tables: ExtractedTable[];
};

/** The tables of page `pageNumber` of a PDF; a reason in words when it cannot be read. */
export async function pdfPageTables(
  data: Uint8Array,
  pageNumber: number,
): Promise<{ ok: true; value: PageTables } | { ok: false; reason: string; status: 400 | 422 }> {
  let pdf: Awaited<ReturnType<typeof openPdf>>;
  try {
    pdf = await openPdf(data);
  } catch (err) {
    const name = (err as { name?: string } | null)?.name;
    const reason =
      err instanceof PdfError
        ? err.message
        : name === 'PasswordException'
          ? 'The PDF is password-protected; remove the password and upload it again.'
          : 'The PDF is damaged and cannot be read.';
    return { ok: false, reason, status: 422 };
  }
  try {
    if (pageNumber > pdf.numPages) {
      return {
        ok: false,
        reason: `page_number must be at most ${pdf.numPages} (the document has ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'})`,
        status: 400,
      };
    }
    const page = await pageText(pdf, pageNumber);
    return {
      ok: true,
      value: {
        num_pages: pdf.numPages,
        page_width: page.width,
        page_height: page.height,
        tables: tablesOfLines(page.lines),
      },
    };
  } finally {
    await pdf.destroy();
  }
}
