/**
 * Sentences of real text (10-K filings, news) as [start, end) spans, for the extractive answer,
 * the citation check and matching history searches: search/sentences.ts, the one splitter that
 * passages are cut with too, so a quoted sentence never straddles two passages.
 */

import { isTableRow, splitSentences, type SentenceSpan } from '../search';

export { splitSentences, type SentenceSpan };

/**
 * A unit the assistant judges and quotes: a sentence, a list with its lead-in, or a table's row
 * ("Net revenues $ 6,362 $ 6,318 $ 5,744").
 */
export type AnswerUnit = SentenceSpan & { list: boolean; row: boolean };

/** At most this many items and characters make one list unit. */
const MAX_ITEMS = 12;
const MAX_LIST_CHARS = 1200;
/** A page's furniture between a list's items ("- 9", "Table of Contents"). */
const FURNITURE = /^(?:[-\u2013\s\d]+|table of contents)$/i;

/** Cells as extraction writes a table's row (uploads: DOCX, PPTX and XLSX tables). */
const CELL_SEPARATOR = ' | ';

/**
 * Whether every line of a text is a table's row as extraction writes it: its cells joined by
 * " | " ("Greater China | 7248 | 7547"; extract/chunk.ts tableRowText).
 */
export const isCellRows = (text: string) =>
  text.split('\n').every((line) => line.includes(CELL_SEPARATOR));

const cellsOf = (line: string) => line.split(CELL_SEPARATOR).length;

/** A header row: past its first cell, no figure but years ("Segment | Fiscal 2023 | 2022"). */
const isHeaderCells = (line: string) =>
  line
    .split(CELL_SEPARATOR)
    .slice(1)
    .every((cell) => !/\d/.test(cell.replace(/\b(?:19|20)\d\d\b/g, '')));

/**
 * The units the assistant judges and quotes: sentences, but a list with the sentence that leads
 * into it ("Our main competitors fall into four categories:", "...industry including:") is one
 * unit: an item alone ("Micron Technology, Inc.;") says nothing of what it lists, nor whose.
 * Items are the sentences on their own lines after the lead-in, up to one ending with a stop.
 */
export function answerUnits(text: string): AnswerUnit[] {
  const spans = splitSentences(text);
  const out: AnswerUnit[] = [];
  for (let i = 0; i < spans.length; i++) {
    const lead = spans[i];
    let end = lead.end;
    let items = 0;
    let j = i + 1;
    if (text[lead.end - 1] === ':') {
      for (; j < spans.length && items < MAX_ITEMS; j++) {
        const next = spans[j];
        if (!text.slice(end, next.start).includes('\n')) break;
        if (next.end - lead.start > MAX_LIST_CHARS) break;
        const item = text.slice(next.start, next.end);
        end = next.end;
        if (FURNITURE.test(item)) continue;
        items++;
        if (!/(?:[;,]|\band|\bor)$/.test(item)) {
          j++;
          break;
        }
      }
    }
    if (items >= 2) {
      out.push({ start: lead.start, end, list: true, row: false });
      i = j - 1;
    } else {
      const unit = text.slice(lead.start, lead.end);
      const prev = out[out.length - 1];
      // An uploaded table's row comes on the line after its header (extraction repeats the
      // header before each row): the two are one unit, so the row's figures say which column
      // (year) they are ("Segment | Fiscal 2023 | Fiscal 2022\nGreater China | 7248 | 7547").
      if (
        isCellRows(unit) &&
        prev &&
        !prev.list &&
        !text.slice(prev.start, prev.end).includes('\n') &&
        isCellRows(text.slice(prev.start, prev.end)) &&
        isHeaderCells(text.slice(prev.start, prev.end)) &&
        /^[^\S\n]*\n[^\S\n]*$/.test(text.slice(prev.end, lead.start)) &&
        cellsOf(text.slice(prev.start, prev.end)) === cellsOf(unit)
      ) {
        out[out.length - 1] = { start: prev.start, end: lead.end, list: false, row: true };
        continue;
      }
      const row = isCellRows(unit) || isTableRow(unit.replace(/\s+/g, ' '));
      out.push({ ...lead, list: false, row });
    }
  }
  return out;
}

/**
 * Where a passage of `text` [start, end) should end so that a list it leads into or stops in
 * is read whole (a passage is cut by length, a list is one unit): the list's end, or `end`.
 */
export function throughList(text: string, start: number, end: number): number {
  const units = answerUnits(text.slice(start, end));
  const open = (u: AnswerUnit) =>
    /(?:[;,]|\band|\bor)$/.test(text.slice(start + u.start, start + u.end));
  // Back from the end over items still open, to the lead-in (or a list) they belong to.
  let k = units.length - 1;
  while (k > 0 && !units[k].list && open(units[k])) k--;
  const lead = units[k];
  if (!lead) return end;
  const leads = lead.list ? open(lead) : text[start + lead.end - 1] === ':';
  if (!leads) return end;
  const from = start + lead.start;
  const [unit] = answerUnits(text.slice(from, from + MAX_LIST_CHARS));
  return unit?.list ? Math.max(end, from + unit.end) : end;
}
