import { z } from 'zod';
import { LIMITS, text } from './define';

/**
 * What a custom feed asks of its documents (002 §4, §5): keywords to include and exclude in the
 * boolean keyword language, with the validator's three messages, and source filters. Pure rules
 * the builder (UI) and the server (validation) share.
 */

export const KEYWORD_MESSAGES = {
  parentheses: 'Invalid keyword. Paranthesis are imbalanced.',
  operatorsAtEnds: 'Invalid keyword. Unused Boolean Operators at ends.',
  quotes: 'Invalid keyword. Quotes are either imbalanced or not at ends.',
} as const;

const OPERATOR_AT_START = /^\s*(AND|OR|NOT)(\s|$)|^\s*[+\-|]/;
const OPERATOR_AT_END = /(^|\s)(AND|OR|NOT)\s*$|[+\-|]\s*$/;
const QUOTE_CHARS = /["'\u201c\u201d\u2018\u2019]/;

/**
 * The boolean keyword validator (002 §5): null when valid, else one of its three messages.
 * Quotes (straight or curly, single, double or triple) must be balanced and sit at the ends
 * of a quoted term: `"net profit" AND margin` is fine, `net "profit` and `ne"t" profit` are not.
 */
export function keywordProblem(input: string): string | null {
  const keyword = input.trim();
  let depth = 0;
  for (const ch of keyword) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return KEYWORD_MESSAGES.parentheses;
  }
  if (depth !== 0) return KEYWORD_MESSAGES.parentheses;
  const bare = keyword.replace(/^[()\s]+|[()\s]+$/g, '');
  if (OPERATOR_AT_START.test(bare) || OPERATOR_AT_END.test(bare)) {
    return KEYWORD_MESSAGES.operatorsAtEnds;
  }
  if (QUOTE_CHARS.test(keyword) && !quotesAtEnds(keyword)) return KEYWORD_MESSAGES.quotes;
  return null;
}

const normaliseQuote = (ch: string) =>
  ch === '\u201c' || ch === '\u201d' ? '"' : ch === '\u2018' || ch === '\u2019' ? "'" : ch;

/** Every quoted run opens after a space/paren/start and closes before a space/paren/end. */
function quotesAtEnds(keyword: string): boolean {
  const chars = [...keyword].map(normaliseQuote);
  let i = 0;
  const boundary = (c: string | undefined) => c === undefined || /[\s()]/.test(c);
  while (i < chars.length) {
    const c = chars[i];
    if (c !== '"' && c !== "'") {
      i++;
      continue;
    }
    // An apostrophe inside a word (Moody's) is not a quote.
    if (c === "'" && !boundary(chars[i - 1]) && !boundary(chars[i + 1])) {
      i++;
      continue;
    }
    if (!boundary(chars[i - 1])) return false;
    let run = 0;
    while (chars[i + run] === c && run < 3) run++;
    const close = c.repeat(run);
    const end = chars.join('').indexOf(close, i + run);
    if (end < 0) return false;
    if (!boundary(chars[end + run])) return false;
    i = end + run;
  }
  return true;
}

export const KeywordType = z.enum(['include', 'exclude']);
export type KeywordType = z.infer<typeof KeywordType>;

export const Keyword = z.object({
  keyword: text('keyword', 500).trim().min(1, { message: 'keyword must not be empty' }),
  valid: z.boolean(),
});
export type Keyword = z.infer<typeof Keyword>;

export const Keywords = z.object({
  include: z.array(Keyword).max(100, { message: 'at most 100 keywords' }),
  exclude: z.array(Keyword).max(100, { message: 'at most 100 keywords' }),
});
export type Keywords = z.infer<typeof Keywords>;

/** The builder's active keyword list: all, or one type. */
export type ActiveKeywordType = KeywordType | 'all';

/**
 * Adds a keyword (002 §4): removed from the other list (a keyword cannot be both), and kept
 * once per list (duplicates removed by keyword, case-insensitively).
 */
export function addKeyword(keywords: Keywords, keyword: string, type: KeywordType): Keywords {
  const word = keyword.trim();
  if (!word) return keywords;
  const same = (k: Keyword) => k.keyword.toLowerCase() === word.toLowerCase();
  const other: KeywordType = type === 'include' ? 'exclude' : 'include';
  const entry = { keyword: word, valid: keywordProblem(word) === null };
  return {
    ...keywords,
    [other]: keywords[other].filter((k) => !same(k)),
    [type]: [...keywords[type].filter((k) => !same(k)), entry],
  } as Keywords;
}

/** Removes a keyword; the active type resets to all when its list becomes empty (002 §4). */
export function removeKeyword(
  keywords: Keywords,
  keyword: string,
  type: KeywordType,
  active: ActiveKeywordType,
): { keywords: Keywords; active: ActiveKeywordType } {
  const next = { ...keywords, [type]: keywords[type].filter((k) => k.keyword !== keyword) };
  return { keywords: next, active: next[type].length === 0 ? 'all' : active };
}

// ---------------------------------------------------------------- source filters (002 §4)

/**
 * The names a source filter may have: the document field it tests. `source` matches source
 * keys, `company` the company name, `category` the filing category or any news category,
 * `secondary_category` the filing's sub-category, `tab` the feed tab key, `market` the market;
 * values match case-insensitively, any of them (the server answers 400 for another name).
 */
export const SOURCE_FILTER_NAMES = [
  'source',
  'company',
  'category',
  'secondary_category',
  'tab',
  'market',
] as const;
export type SourceFilterName = (typeof SOURCE_FILTER_NAMES)[number];

export const SourceFilter = z.object({
  /** The field it tests: one of SOURCE_FILTER_NAMES (`company`); values are what it matches. */
  name: text('filter name', LIMITS.name).min(1),
  values: z.array(text('filter value', LIMITS.name)).max(200),
});
export type SourceFilter = z.infer<typeof SourceFilter>;

export const SourceFilters = z.object({
  filter: z.array(SourceFilter).max(50),
  exclusion_filter: z.array(SourceFilter).max(50),
});
export type SourceFilters = z.infer<typeof SourceFilters>;

/**
 * Sets one filter (002 §4): including a name removes it from exclude and the reverse; an empty
 * list of values removes the filter.
 */
export function setSourceFilter(
  filters: SourceFilters,
  name: string,
  values: string[],
  mode: KeywordType,
): SourceFilters {
  const own = mode === 'include' ? 'filter' : 'exclusion_filter';
  const other = mode === 'include' ? 'exclusion_filter' : 'filter';
  const kept = filters[own].filter((f) => f.name !== name);
  return {
    ...filters,
    [other]: filters[other].filter((f) => f.name !== name),
    [own]: values.length === 0 ? kept : [...kept, { name, values }],
  } as SourceFilters;
}
