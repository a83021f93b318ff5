// Extraction of uploaded documents (issue 20 item 3): the type by content, text with page
// numbers (and boxes for PDF) from real files, and every broken file ending with a reason.
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectType, extractDocument, type ExtractedPassage } from '../../server/extract/index';

const dir = new URL('../fixtures/uploads/', import.meta.url);
const file = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));

async function ok(name: string, bytes: Uint8Array = file(name)) {
  const r = await extractDocument(bytes, { name });
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return r;
}
async function reason(name: string, bytes: Uint8Array = file(name)) {
  const r = await extractDocument(bytes, { name });
  if (r.ok) throw new Error(`${name} was read`);
  return r.reason;
}
function find(passages: ExtractedPassage[], sentence: string) {
  const hits = passages.filter((p) => p.text.includes(sentence));
  expect(hits.length, `"${sentence}" found once`).toBe(1);
  return hits[0]!;
}

describe('detectType reads the content, not the name', () => {
  it('tells each kind by its bytes', () => {
    expect(detectType(file('issue13242.pdf'), 'a.docx')).toBe('pdf');
    expect(detectType(file('tables.docx'), 'a.pdf')).toBe('docx');
    expect(detectType(file('strict-format.docx'), 'x')).toBe('docx');
    expect(detectType(file('tbl-cell.pptx'), 'a.xlsx')).toBe('pptx');
    expect(detectType(file('shp-embedded-xlsx.xlsx'), 'a.pptx')).toBe('xlsx');
    expect(detectType(file('program.pdf'), 'program.pdf')).toBe(null);
    expect(detectType(file('nike-10k-item1.txt'), 'notes.md')).toBe('md');
    expect(detectType(file('nike-10k-item1.txt'), 'notes.pdf')).toBe('txt');
  });

  it('needs only the head of an OOXML package', () => {
    expect(detectType(file('tables.docx').subarray(0, 4096), 'x.bin')).toBe('docx');
    expect(detectType(file('tbl-cell.pptx').subarray(0, 4096), 'x.bin')).toBe('pptx');
  });

  it('knows old Office files and UTF-8 cut inside a character', () => {
    const ole = new Uint8Array(1024);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ole.set(strToU8('W\0o\0r\0k\0b\0o\0o\0k\0'), 600);
    expect(detectType(ole, 'old.doc')).toBe('xls');
    const text = strToU8('Résumé — ok');
    expect(detectType(text.subarray(0, text.length - 5), 'a.txt')).toBe('txt');
    expect(detectType(new Uint8Array([0x41, 0x00, 0x42]), 'a.txt')).toBe(null);
  });
});

describe('PDF', () => {
  it('gives paragraphs with their page and box from the top-left, in points', async () => {
    const r = await ok('bug1885505.pdf');
    expect(r.kind).toBe('pdf');
    expect(r.pages).toBe(1);
    const p = find(
      r.passages,
      'Dynamic languages such as JavaScript are more difficult to compile than statically typed ones.',
    );
    expect(p.page).toBe(1);
    expect([p.pageWidth, p.pageHeight]).toEqual([612, 792]);
    // The abstract sits in the left column (x < 306), below the title block, in the upper half.
    const [x0, y0, x1, y1] = p.box!;
    expect(x0).toBeGreaterThan(50);
    expect(x1).toBeLessThan(306);
    expect(y0).toBeGreaterThan(280);
    expect(y1).toBeLessThan(500);
    expect(y0).toBeLessThan(y1);
    // The right column's paragraph is its own passage, to the right of the middle.
    const right = find(
      r.passages,
      'We present a trace-based compilation technique for dynamic languages',
    );
    expect(right.box![0]).toBeGreaterThan(306);
  });

  it('numbers the pages of a long document', async () => {
    const r = await ok('nike-10k-item1.pdf');
    expect(r.pages).toBe(6);
    expect(r.title).toBe('NIKE, Inc. Form 10-K 2023, Item 1');
    expect(
      find(r.passages, 'NIKE, Inc. was incorporated in 1967 under the laws of the State of Oregon.')
        .page,
    ).toBe(1);
    expect(
      find(
        r.passages,
        'non-U.S. NIKE Brand and Converse sales accounted for approximately 57% of total revenues',
      ).page,
    ).toBe(4);
    expect(
      find(
        r.passages,
        'The principal materials used in our footwear products are natural and synthetic rubber',
      ).page,
    ).toBe(6);
    for (const p of r.passages) expect(p.text.length).toBeLessThanOrEqual(1400);
  });

  it('reads typographic quotes, accents and a second page', async () => {
    const fr = await ok('bug1868759.pdf');
    find(fr.passages, 'Détermination de la qualité des avis');
    const z = await ok('ZapfDingbats.pdf');
    expect(z.pages).toBe(2);
    const header = find(z.passages, 'Character Sets — Zapf Dingbats Page 2');
    expect(header.page).toBe(2);
    expect(header.box![1]).toBeLessThan(60);
  });

  it('reads Japanese (CID fonts through their character maps) and Thai', async () => {
    const ja = await ok('issue16538.pdf');
    // Lines of Japanese go on without a space.
    find(
      ja.passages,
      '標準 マーケットモデルは 2 次元で説明する. 「取引できない商品」がマクロ経済変数など',
    );
    find(ja.passages, 'リスク中立確率は一意ではなく, 価格も一意でなくなる.');
    const th = await ok('issue13211.pdf');
    find(th.passages, 'ในข้อดังกล่าว และตั้งฉากกับระนาบที่ผ่าน');
  });

  it('fails an encrypted, a truncated and a textless PDF with the reason', async () => {
    expect(await reason('encrypted.pdf')).toBe(
      'The PDF is password-protected; remove the password and upload it again.',
    );
    expect(await reason('truncated.pdf')).toBe(
      'The PDF is incomplete (it was cut short, perhaps by an interrupted upload); upload the whole file again.',
    );
    expect(await reason('issue15150.pdf')).toBe(
      'No text found in the file (a scanned PDF needs text recognition, which is not available)',
    );
  });

  it("leaves the caller's bytes usable", async () => {
    const bytes = file('issue13242.pdf');
    await ok('issue13242.pdf', bytes);
    expect(bytes.length).toBe(27635);
    expect(detectType(bytes, 'a')).toBe('pdf');
  });
});

describe('Word, PowerPoint, Excel', () => {
  it('reads Word paragraphs, table rows with their header, footnotes, text boxes and strict files', async () => {
    const t = await ok('tables.docx');
    expect(t.kind).toBe('docx');
    expect(t.passages).toEqual([
      { text: 'Above', kind: 'text' },
      { text: 'Top left | Top right', kind: 'table-row' },
      { text: 'Top left | Top right\nBottom left | Bottom right', kind: 'table-row' },
      { text: 'Below', kind: 'text' },
    ]);
    const f = await ok('footnotes.docx');
    expect(f.passages.map((p) => p.text)).toEqual(['Ouch.', 'A tachyon walks into a bar. Fin.']);
    expect((await ok('text-box.docx')).passages.map((p) => p.text)).toEqual(['Datum plane']);
    expect((await ok('strict-format.docx')).passages.map((p) => p.text)).toEqual(['Test']);
    expect(await reason('empty.docx')).toBe(
      'No text found in the file (a scanned PDF needs text recognition, which is not available)',
    );
  });

  it('reads slides as pages, their tables as rows', async () => {
    const r = await ok('tbl-cell.pptx');
    expect(r.kind).toBe('pptx');
    expect(r.pages).toBe(3);
    const row = find(r.passages, 'd | e | f');
    expect(row).toEqual({ text: 'a | b | c\nd | e | f', page: 3, kind: 'table-row' });
    expect(find(r.passages, 'unladen swallows').page).toBe(1);
  });

  it("reads a sheet's rows as table rows under the header row", async () => {
    const real = await ok('shp-embedded-xlsx.xlsx');
    expect(real.passages.map((p) => p.text)).toEqual(['1', '1\n2', '1\n3']);
    const xlsx = workbook([
      ['Company', 'Fiscal 2023 revenue ($m)'],
      ['NIKE, Inc.', '51217'],
      ['Apple Inc.', '383285'],
    ]);
    const r = await ok('figures.xlsx', xlsx);
    expect(r.kind).toBe('xlsx');
    expect(r.passages).toEqual([
      { text: 'Company | Fiscal 2023 revenue ($m)', page: 1, kind: 'table-row' },
      {
        text: 'Company | Fiscal 2023 revenue ($m)\nNIKE, Inc. | 51217',
        page: 1,
        kind: 'table-row',
      },
      {
        text: 'Company | Fiscal 2023 revenue ($m)\nApple Inc. | 383285',
        page: 1,
        kind: 'table-row',
      },
    ]);
  });

  it('fails old Office files, damaged packages and zip bombs with a reason', async () => {
    const ole = new Uint8Array(2048);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    ole.set(strToU8('W\0o\0r\0d\0D\0o\0c\0u\0m\0e\0n\0t\0'), 1100);
    expect(await reason('old.doc', ole)).toBe(
      'Old Word/PowerPoint/Excel files (.doc/.ppt/.xls) cannot be read; save it as .docx/.pptx/.xlsx and upload again.',
    );
    const docx = file('tables.docx');
    expect(await reason('cut.docx', docx.subarray(0, docx.length - 400))).toBe(
      'The Word file cannot be read: the file is incomplete or damaged (its zip directory is missing).',
    );
    expect(await reason('bomb.docx')).toBe(
      'The Word file cannot be read: the file expands to more than 64 MB of content (a zip bomb?).',
    );
    // The same bomb declaring 1,000 bytes in its directory is stopped while it inflates.
    const lying = file('bomb.docx');
    const dv = new DataView(lying.buffer, lying.byteOffset, lying.byteLength);
    dv.setUint32(22, 1000, true);
    const central = lying.findLastIndex(
      (_, i) => i + 4 <= lying.length && dv.getUint32(i, true) === 0x02014b50,
    );
    dv.setUint32(central + 24, 1000, true);
    expect(await reason('lying.docx', lying)).toBe(
      'The Word file cannot be read: the file expands to more than 64 MB of content (a zip bomb?).',
    );
  });
});

describe('text and Markdown', () => {
  it('gives paragraphs of a text file', async () => {
    const r = await ok('nike-10k-item1.txt');
    expect(r.kind).toBe('txt');
    const p = find(
      r.passages,
      'NIKE is the largest seller of athletic footwear and apparel in the world.',
    );
    expect(p.page).toBe(undefined);
    expect(p.box).toBe(undefined);
    for (const q of r.passages) expect(q.text.length).toBeLessThanOrEqual(1400);
  });

  it("gives Markdown's paragraphs without marks and its table's rows with the header", async () => {
    const r = await ok('nike-markets.md');
    expect(r.kind).toBe('md');
    expect(r.title).toBe('NIKE international markets');
    find(
      r.passages,
      'approximately 57% of total revenues, compared to 60% and 61% for fiscal 2022 and fiscal 2021',
    );
    expect(r.passages.filter((p) => p.kind === 'table-row').map((p) => p.text)).toEqual([
      'Fiscal year | Non-U.S. share of revenues',
      'Fiscal year | Non-U.S. share of revenues\n2023 | 57%',
      'Fiscal year | Non-U.S. share of revenues\n2022 | 60%',
      'Fiscal year | Non-U.S. share of revenues\n2021 | 61%',
    ]);
    find(r.passages, 'through our own NIKE Direct operations');
  });

  it('fails a renamed program and an empty file', async () => {
    expect(await reason('program.pdf')).toBe(
      'The file is not a PDF, Word, PowerPoint, Excel, text or Markdown file.',
    );
    expect(await reason('empty.txt', new Uint8Array(0))).toBe('The file is empty.');
    // Text for its first MiB, then not UTF-8.
    const halfText = new Uint8Array((1 << 20) + 10).fill(0x61);
    halfText[(1 << 20) + 5] = 0xff;
    expect(await reason('notes.txt', halfText)).toBe(
      'The file is not a PDF, Word, PowerPoint, Excel, text or Markdown file.',
    );
    expect(await reason('blank.txt', strToU8('\n\n  \n'))).toBe(
      'No text found in the file (a scanned PDF needs text recognition, which is not available)',
    );
  });
});

/** A minimal workbook with shared strings (what Excel writes for text cells). */
function workbook(rows: string[][]): Uint8Array {
  const strings: string[] = [];
  const idx = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const sheet = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((v, c) =>
            /^\d+$/.test(v)
              ? `<c r="${String.fromCharCode(65 + c)}${r + 1}"><v>${v}</v></c>`
              : `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="s"><v>${idx(v)}</v></c>`,
          )
          .join('')}</row>`,
    )
    .join('');
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="Revenue" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<worksheet xmlns="${ns}"><sheetData>${sheet}</sheetData></worksheet>`,
    ),
    'xl/sharedStrings.xml': strToU8(
      `<sst xmlns="${ns}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
    ),
  });
}
