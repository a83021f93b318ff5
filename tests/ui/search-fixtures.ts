import type { CategoryTabInfo, DocumentDetail } from '../../contract/documents';
import type { SearchRow, SearchWindow } from '../../contract/search';
import type { OpInput, OpOutput } from '../../contract/worker-api';
import { storyCard } from './feed-fixtures';

/** Result `i` of a search for "rates": "Rates story i", its snippet marking the word. */
export function searchRow(i: number, patch: Partial<SearchRow> = {}): SearchRow {
  return {
    ...storyCard(i, { title: `Rates story ${i}`, plain_text: `Central banks held rates ${i}.` }),
    document_id: `d${i}`,
    title_label: `Rates story ${i}`,
    source_label: 'Reuters',
    highlights: [`Central banks held <em>rates</em> ${i}.`],
    highlight_indexes: [{ start: 19, end: 24 }],
    passage: { start: 0, end: 26 },
    score: 1 / i,
    read: false,
    ...patch,
  };
}

type Answer = Partial<Omit<SearchWindow, 'rows' | 'offset'>>;

/**
 * A search as the worker's mirror answers windows of it: `total` results ("Rates story i"),
 * with the window's summary fields from `answer` (tabs, spelling, count).
 */
export function createSearch(total: number, answer: Answer = {}) {
  return (input: OpInput<'search.window'>): OpOutput<'search.window'> => {
    const rows: SearchRow[] = [];
    for (let i = input.offset; i < Math.min(input.offset + input.count, total); i += 1) {
      rows.push(searchRow(i + 1));
    }
    return {
      key: 'k',
      offset: input.offset,
      rows,
      count: total,
      count_exact: true,
      reachable: total,
      category_tabs: [],
      corrected_q: null,
      searched_q: input.params.q,
      stale: false,
      fetched_at: 1_700_000_000_000,
      ...answer,
    };
  };
}

export const tab = (key: string, data: number): CategoryTabInfo => ({
  key,
  label: key,
  data,
  icon: '',
});

/** The document behind result 1, as doc.get answers it. */
export function rateDetail(patch: Partial<DocumentDetail> = {}): DocumentDetail {
  return {
    ...searchRow(1),
    content: '<p>Central banks held rates 1.</p><p>Rates may fall next year.</p>',
    body: 'Central banks held rates 1.\n\nRates may fall next year.',
    read: false,
    ...patch,
  };
}
