import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { extractDocument } from '../server/extract';
import { writePdf, type PdfBlock } from '../server/summaries/pdf-writer';

/**
 * bench/extract-pdf: extraction of a 300-page text PDF (issue 20 figures): passages per second
 * and pages per second of `extractDocument` (pdf.js through unpdf, page by page, lines,
 * paragraphs and boxes), against a baseline in the same run: unpdf's own `extractText` of the
 * same file (pdf.js text, no positions, no passages). Memory: resident set size when idle
 * (the PDF made and read into memory) and its peak during extraction, sampled every 5 ms.
 *
 * The PDF: NIKE, Inc.'s 10-K Item 1 opening (tests/fixtures/uploads/nike-10k-item1.txt, 6
 * pages) written 50 times by the server's PDF writer, each copy from a new page: 300 pages.
 * Run: npx tsx bench/extract-pdf.ts
 */

const COPIES = Number(process.env.EXTRACT_BENCH_COPIES ?? 50);
const text = readFileSync(
  join(import.meta.dirname, '..', 'tests', 'fixtures', 'uploads', 'nike-10k-item1.txt'),
  'utf8',
);
const paragraphs = text
  .split(/\n\s*\n/)
  .map((p) => p.trim().replace(/^>/, ''))
  .filter(Boolean);
const blocks: PdfBlock[] = [];
for (let c = 0; c < COPIES; c++) {
  paragraphs.forEach((p, i) =>
    blocks.push(
      /^[A-Z0-9 .,&-]+$/.test(p)
        ? { text: p, size: 13, bold: true, pageBreak: i === 0 }
        : { text: p, pageBreak: i === 0 },
    ),
  );
}
const pdf = writePdf({ title: 'Extraction benchmark', blocks });

const mb = (n: number) => (n / 1048576).toFixed(1);
const rss = () => process.memoryUsage().rss;

async function measure<T>(fn: () => Promise<T>) {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 50));
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 5);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, rss());
  return { value, ms, idle, peak };
}

// Warm both (pdf.js's module load and JIT) before measuring.
await extractText(await getDocumentProxy(pdf.slice()), { mergePages: true });
await extractDocument(pdf, { name: 'bench.pdf' });

const base = await measure(
  async () =>
    (await extractText(await getDocumentProxy(pdf.slice()), { mergePages: true })).totalPages,
);
const ours = await measure(() => extractDocument(pdf, { name: 'bench.pdf' }));
if (!ours.value.ok) throw new Error(ours.value.reason);
const pages = ours.value.pages ?? 0;
const passages = ours.value.passages.length;

console.log(
  `PDF: ${pages} pages, ${mb(pdf.length)} MB, ${passages} passages (${ours.value.passages.filter((p) => p.box).length} with a box)`,
);
console.log(
  `extractDocument: ${ours.ms.toFixed(0)} ms = ${((passages * 1000) / ours.ms).toFixed(0)} passages/s, ${((pages * 1000) / ours.ms).toFixed(0)} pages/s; RSS idle ${mb(ours.idle)} MB, peak ${mb(ours.peak)} MB (+${mb(ours.peak - ours.idle)} MB)`,
);
console.log(
  `baseline unpdf extractText: ${base.ms.toFixed(0)} ms = ${((base.value * 1000) / base.ms).toFixed(0)} pages/s; RSS +${mb(base.peak - base.idle)} MB`,
);
console.log(`ratio (extractDocument time / baseline time): ${(ours.ms / base.ms).toFixed(2)}`);
