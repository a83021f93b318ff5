// A document's summary, extractive (no model): its most representative sentences in document
// order (scored by how many of the document's frequent words they hold, Luhn's method), then
// the sentences stating figures, each with its page where the document has pages; written as a
// PDF by pdf-writer.ts.

import { isTableRow, splitSentences } from '../search';
import { writePdf, type PdfBlock } from './pdf-writer';

const STOP = new Set(
  (
    'the and for that with this from are was were has have had not but our its their which ' +
    'such also may can will would could should been being into than other these those there ' +
    'they them any all each more most some what when where who whom how about over under ' +
    'between within upon while both only very per including include includes'
  ).split(' '),
);

const wordsOf = (s: string) =>
  (s.toLowerCase().match(/\p{L}[\p{L}'-]{2,}/gu) ?? []).filter((w) => !STOP.has(w));

const FIGURE = /(\$|€|£|¥|₹)\s?\d|\d(?:[\d,.]*)\s?(%|percent|million|billion|thousand|crore|lakh)/i;

export type SummaryInput = {
  title: string;
  text: string;
  /** The page of the text at an offset, when the document has pages. */
  pageAt?: (offset: number) => number | undefined;
};

export type Summary = {
  keyPoints: Array<{ text: string; page?: number }>;
  figures: Array<{ text: string; page?: number }>;
  sentences: number;
};

export function summarize(input: SummaryInput): Summary {
  const spans = splitSentences(input.text)
    .map((s) => ({ ...s, text: input.text.slice(s.start, s.end).replace(/\s+/g, ' ').trim() }))
    // Neither a lead-in to a list (it says nothing alone) nor a table's row.
    .filter(
      (s) =>
        s.text.length >= 40 && s.text.length <= 600 && !s.text.endsWith(':') && !isTableRow(s.text),
    );
  const freq = new Map<string, number>();
  for (const s of spans)
    for (const w of new Set(wordsOf(s.text))) freq.set(w, (freq.get(w) ?? 0) + 1);
  // The document's significant words: those in more than one sentence, the top 60.
  const top = new Set(
    [...freq.entries()]
      .filter(([, n]) => n > 1)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 60)
      .map(([w]) => w),
  );
  const scored = spans.map((s, i) => {
    const words = wordsOf(s.text);
    const hits = words.filter((w) => top.has(w)).length;
    const lead = i < 3 ? 0.5 : 0;
    return { ...s, i, score: words.length ? hits / Math.sqrt(words.length) + lead : 0 };
  });
  const count = Math.max(3, Math.min(10, Math.ceil(spans.length / 20)));
  const chosen = [...scored]
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, count)
    .sort((a, b) => a.i - b.i);
  const taken = new Set(chosen.map((s) => s.i));
  const figures = scored
    .filter((s) => !taken.has(s.i) && FIGURE.test(s.text))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, 6)
    .sort((a, b) => a.i - b.i);
  const withPage = (s: { text: string; start: number }) => {
    const page = input.pageAt?.(s.start);
    return page === undefined ? { text: s.text } : { text: s.text, page };
  };
  return {
    keyPoints: chosen.map(withPage),
    figures: figures.map(withPage),
    sentences: spans.length,
  };
}

/** The summary as a PDF: title, what was summarised, key points, figures. */
export function summaryPdf(
  doc: { title: string; fileName: string; pages?: number | null; at: Date },
  s: Summary,
) {
  const cite = (p: { text: string; page?: number }) => ({
    text: `\u2022 ${p.text}${p.page === undefined ? '' : ` (p. ${p.page})`}`,
  });
  const blocks: PdfBlock[] = [
    { text: `Summary: ${doc.title}`, size: 16, bold: true },
    {
      text: `${doc.fileName}${doc.pages ? `, ${doc.pages} page${doc.pages === 1 ? '' : 's'}` : ''}. Summarised on ${doc.at.toISOString().slice(0, 10)} from ${s.sentences} sentences; the sentences below are quoted from the document.`,
      size: 9,
    },
    { text: 'Key points', size: 13, bold: true },
    ...(s.keyPoints.length
      ? s.keyPoints.map(cite)
      : [{ text: 'The document has no sentences to summarise.' }]),
  ];
  if (s.figures.length)
    blocks.push({ text: 'Figures', size: 13, bold: true }, ...s.figures.map(cite));
  return writePdf({ title: `Summary: ${doc.title}`, blocks });
}
