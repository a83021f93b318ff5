import { stem } from '../../contract/words';
import { nameWords, normalizedNameWord } from '../search';
import { isNotOrganisation, type QuestionAnalysis, type TermGroup } from './question';
import { isCellRows } from './sentences';

/**
 * What a sentence holds, word by word: the question's terms (as stems, in order), the
 * organisations it names, and the figure of the kind asked (a number, an amount, a count, a
 * date, a place, a name, a kind, a rating; a table unit's cells). evidence.ts judges a sentence
 * with these.
 */
/**
 * The stems of a text's words in order; "%" stands as a word of its own. Each word also
 * stands as written, marked "=" ("=founded"), for terms whose stem is another word's too.
 */
export const stemSequence = (text: string): string[] => {
  const out: string[] = [];
  for (const m of text.matchAll(/%|[\p{L}\p{N}]+/gu)) {
    if (m[0] === '%') {
      out.push('%');
      continue;
    }
    for (const w of nameWords(m[0])) out.push(stem(w));
  }
  return out;
};

export const writtenWords = (text: string) => nameWords(text).map((w) => `=${w}`);

const holdsSequence = (seq: readonly string[], set: ReadonlySet<string>, alt: string[]) => {
  if (alt.length === 1) return set.has(alt[0]);
  if (!set.has(alt[0])) return false;
  for (let i = 0; i + alt.length <= seq.length; i++) {
    if (alt.every((w, k) => seq[i + k] === w)) return true;
  }
  return false;
};

/** Whether a text's stems hold a group (any of its words or phrases). */
export const holdsGroup = (seq: readonly string[], set: ReadonlySet<string>, g: TermGroup) =>
  g.alternatives.some((alt) => holdsSequence(seq, set, alt));

/** Names as lower-case word runs, legal forms in one spelling (entities.ts). */
export const nameSequence = (text: string) => nameWords(text).map(normalizedNameWord);

/** Whether a text names one of the aliases (word runs). */
export function namesAny(text: string, aliases: readonly string[]): boolean {
  if (aliases.length === 0) return false;
  const words = nameSequence(text);
  const joined = ` ${words.join(' ')} `;
  return aliases.some((a) => joined.includes(` ${a} `));
}

const NUMBER_WORDS =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|million|billion)\b/i;
const MONTHS =
  /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

/** The day of a date ("April 28, 2023", "28 April"): no figure. */
const DAY_BEFORE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+$/i;
const dayOfDate = (text: string, at: number, n: string) =>
  /^\d{1,2}$/.test(n) &&
  (DAY_BEFORE.test(text.slice(Math.max(0, at - 12), at)) ||
    /^\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(
      text.slice(at + n.length, at + n.length + 12),
    ));

/** A figure: an amount, a percentage, a count; a year or a date's day alone is not one. */
export function holdsNumber(text: string): boolean {
  for (const m of text.matchAll(/\d[\d,.]*/g)) {
    const n = m[0].replace(/[.,]+$/, '');
    if (dayOfDate(text, m.index, n)) continue;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 10);
    const before = text[m.index - 1] ?? '';
    const isYear = /^(?:19|20)\d\d$/.test(n) && !/^\s*(?:%|percent)/.test(after) && before !== '$';
    if (!isYear) return true;
  }
  return NUMBER_WORDS.test(text);
}

/** Capitalised words no organisation is called by: a sentence's own openers and pronouns. */
const NOT_A_NAME = new Set(
  'we our us the a an in as and for to of it its this these they their company companies i'.split(
    ' ',
  ),
);

/**
 * A name other than the organisation asked about: a capitalised word past the sentence's first
 * ("We compete with Adidas"), not one of the question's organisations' own words.
 */
function holdsName(text: string, q: QuestionAnalysis, groups = q.groups): boolean {
  const own = new Set(q.entities.flatMap((e) => e.aliases.flatMap((a) => a.split(' '))));
  const words = [...text.matchAll(/[\p{L}][\p{L}\p{N}&.-]*/gu)].map((m) => m[0]);
  // Named after what is asked ("we compete with Adidas", "our largest customer, Nokia"), not
  // before it ("Jurisdictions such as China ... competition").
  const asked = new Set(groups.flatMap((g) => g.alternatives.map((a) => a[0])));
  const from = asked.size
    ? words.findIndex((w) => nameWords(w).some((x) => asked.has(stem(x))))
    : 0;
  if (from < 0) return false;
  return words.some((w, i) => {
    if (i === 0 || i <= from) return false;
    const lower = nameWords(w)[0] ?? '';
    const previous = nameWords(words[i - 1])[0] ?? '';
    // Not an acronym of the trade (HDD, SSD, SaaS), not the organisation's own ("FedEx Express").
    const acronym = /^[\p{Lu}][\p{Lu}\p{Ll}]{0,3}$/u.test(w) && /\p{Lu}.*\p{Lu}/u.test(w);
    return (
      /^\p{Lu}/u.test(w) &&
      !acronym &&
      !NOT_A_NAME.has(lower) &&
      !isNotOrganisation(lower) &&
      !own.has(lower) &&
      !own.has(previous)
    );
  });
}

const AMOUNT =
  /[$€£¥]\s*\d|\d\s?(?:million|billion|thousand|trillion)\b|\b(?:USD|EUR|GBP|INR|AUD)\s?\d/i;
const PERCENT = /\d\s*(?:%|percent\b|per\s+cent\b|percentage\s+points?\b|basis\s+points?\b)/i;

/** A count: a number that is no amount of money, no percentage and not only a year. */
function holdsCount(text: string): boolean {
  for (const m of text.matchAll(/\d[\d,.]*/g)) {
    const n = m[0].replace(/[.,]+$/, '');
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    // Part of a name ("COVID-19", "Rule 10b-5"), or a date's day.
    if (/[\p{L}]-?$/u.test(before) || dayOfDate(text, m.index, n)) continue;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    if (/[$€£¥]\s?$/.test(before) || /^\s?(?:%|percent|per cent|basis)/i.test(after)) continue;
    if (/^(?:19|20)\d\d$/.test(n)) continue;
    return true;
  }
  return /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|hundred|thousand|dozen)\b/i.test(
    text,
  );
}

/** A place: "Beaverton, Oregon", "San Jose, CA", or a country or city the module knows. */
function holdsPlace(text: string): boolean {
  if (/\b\p{Lu}[\p{L}.]+(?:\s\p{Lu}[\p{L}.]+)*,\s(?:\p{Lu}[\p{Ll}]+|\p{Lu}{2})\b/u.test(text)) {
    return true;
  }
  return [...text.matchAll(/\b\p{Lu}[\p{Ll}]+/gu)].some(
    (m, i) => i > 0 && isNotOrganisation(m[0].toLowerCase()) && m[0].length > 3,
  );
}

/** A credit rating: "AA-", "A1", "Baa2", "A-1+", "P-1", "investment grade". */
const RATING =
  /(?<![\w-])(?:AAA|AA[+-]?|A[+-]|BBB[+-]?|BB[+-]?|CCC[+-]?|Aaa|Aa[1-3]|A[1-3]|Baa[1-3]|Ba[1-3]|Caa[1-3]|A-1\+?|P-[1-3])(?![\w+])|\b[Ii]nvestment[- ][Gg]rade\b/;

/** Words that say how many or which, not what kind ("many companies", "our competitors"). */
const NO_KIND = new Set(
  `a an the our its their his her these those this that many other others several some various
  numerous such all certain any each both few more most new larger smaller`.split(/\s+/),
);
const KIND_NOUN =
  /\b([\p{L}-]+)\s+(?:vendors?|providers?|companies|manufacturers?|suppliers?|firms?|players?|businesses|retailers?|distributors?|carriers?|publishers?|banks?|institutions?|competitors?)\b/giu;

/** A kind of organisation: "storage vendors", "public cloud providers" (not "many companies"). */
function holdsKind(text: string): boolean {
  return [...text.matchAll(KIND_NOUN)].some((m) => !NO_KIND.has(m[1].toLowerCase()));
}

/**
 * Whether an uploaded table's row (sentences.ts isCellRows, with its header) holds a figure in
 * a cell after its label: a sheet's cells state amounts and counts bare ("7248"), their unit in
 * a header or the title; a header's "Fiscal 2023" is a year, no figure.
 */
const cellsHoldNumber = (rows: string) =>
  rows.split('\n').some((line) =>
    line
      .split(' | ')
      .slice(1)
      .some((cell) => holdsNumber(cell)),
  );

/** Whether a sentence holds the kind of figure the question asks for (question.ts Figure). */
export function holdsFigure(
  sentence: string,
  q: QuestionAnalysis,
  groups: TermGroup[] = q.groups,
): boolean {
  if (
    (q.figure === 'amount' || q.figure === 'change' || q.figure === 'count') &&
    isCellRows(sentence) &&
    cellsHoldNumber(sentence)
  ) {
    return true;
  }
  switch (q.figure) {
    case null:
      return true;
    case 'number':
      return holdsNumber(sentence);
    case 'count':
      return holdsCount(sentence);
    case 'amount':
      return AMOUNT.test(sentence);
    case 'percent':
      return PERCENT.test(sentence);
    case 'change':
      return PERCENT.test(sentence) || AMOUNT.test(sentence);
    case 'date':
      return holdsDate(sentence);
    case 'name':
      return holdsName(sentence, q, groups);
    case 'place':
      return holdsPlace(sentence);
    case 'kind':
      return holdsKind(sentence);
    case 'rating':
      return RATING.test(sentence);
  }
}

const holdsDate = (text: string) => MONTHS.test(text) || /\b(?:18|19|20)\d\d\b/.test(text);

/** Whether a number stands within three words of a word of the question's groups. */
export function nearFigure(q: QuestionAnalysis, seq: readonly string[]): boolean {
  if (q.figure === null || ['name', 'place', 'kind', 'rating'].includes(q.figure)) return false;
  const terms = new Set(q.groups.flatMap((g) => g.alternatives.map((a) => a[0])));
  const numbers: number[] = [];
  const asked: number[] = [];
  seq.forEach((w, i) => {
    if (/^\d/.test(w) || w === '%') numbers.push(i);
    if (terms.has(w)) asked.push(i);
  });
  return numbers.some((n) => asked.some((a) => Math.abs(a - n) <= 3));
}

/** Words before a measure that leave it the whole organisation's ("total revenue"). */
const WHOLE_BEFORE = new Set(
  'total net consolidated overall aggregate our the its their company in of we had'.split(' '),
);
const tokens = (text: string) => (text.match(/[\p{L}\p{N}'\u2019]+/gu) ?? []).map((t) => t);
const possessive = (t: string) => /(?:['\u2019]s|s['\u2019])$/i.test(t);

/** The question's groups asked of the whole organisation: after "Nike's", "its", "total". */
export function wholeGroups(q: QuestionAnalysis): TermGroup[] {
  if (q.entities.length === 0) return [];
  const words = tokens(q.question);
  return (q.parts?.[0].groups ?? q.groups).filter((g) => {
    if (!g.alternatives.some((a) => MEASURES.has(a[0]))) return false;
    const i = words.findIndex((w) => stem(w.toLowerCase()) === stem(g.word));
    if (i <= 0) return false;
    const before = words[i - 1].toLowerCase();
    // "Nike's revenue", "its revenue", "total revenue", "the fiscal 2023 revenue".
    return (
      possessive(before) || /^(?:its|their|total|consolidated|overall|annual|\d{4})$/.test(before)
    );
  });
}

/** What a company has in all and its parts in part (stems): revenue, debt, staff, profit. */
const MEASURES = new Set(
  ['revenue', 'sales', 'debt', 'borrowings', 'employees', 'income', 'profit', 'earnings'].map(stem),
);
/** "revenues at the professional information business", "sales of our Jordan Brand". */
const OF_A_PART =
  /\b(?:at|of|from|in)\s+(?:the|our|its)\s+(?:[\p{L}&-]+\s+){0,4}(?:business|division|unit|brand|segment)s?\b/iu;

/** Whether a sentence names each group of `whole` as the whole's (see Evidence.whole). */
export function speaksOfWhole(whole: TermGroup[], sentence: string): boolean {
  if (whole.length === 0 || /\bsegments?\b/i.test(sentence) || OF_A_PART.test(sentence)) {
    return false;
  }
  if (/^In\s+\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*)*,/u.test(sentence)) return false;
  const words = tokens(sentence).map((w) => w.toLowerCase());
  return whole.every((g) => {
    const stems = new Set(g.alternatives.filter((a) => a.length === 1).map((a) => a[0]));
    const i = words.findIndex((w) => stems.has(stem(w)));
    return i === 0 || (i > 0 && WHOLE_BEFORE.has(words[i - 1]));
  });
}
