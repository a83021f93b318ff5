import { stem } from '../../contract/words';
import { nameWords, normalizedNameWord } from '../search';
import { isNotOrganisation, type Figure, type QuestionAnalysis, type TermGroup } from './question';
import { isCellRows } from './sentences';

/**
 * Does a sentence answer the question (issue 16)? The one rule both answerers apply, so that
 * neither offers a sentence of another organisation's document, nor one that does not state
 * what was asked:
 *
 * - about the right organisation: its document's filer is one the question names; or its
 *   document has no filer and the sentence (or the document's title) names the organisation;
 *   an organisation the index does not know is answered only from documents of no one that
 *   name it; a question naming none may be answered from any document;
 * - holding what is asked: the question's term groups (question.ts), all of them for a strong
 *   (HIGH) answer, all but one for an answer at all when there are three or more;
 * - a figure when one is asked (a number that is not only a year; a date for "when").
 */

export type Evidence = {
  /** The named organisation the sentence is about (its key), or null when none is named. */
  entity: string | null;
  /** The sentence may be offered for this question's organisations. */
  entityOk: boolean;
  /** Term groups the sentence holds. */
  held: number;
  /** It holds a figure of the kind asked (true when none is asked). */
  figure: boolean;
  /** It may answer (entity, enough of the terms, the figure). */
  eligible: boolean;
  /** It states what was asked about the named organisation: every term and the figure. */
  strong: boolean;
  /** A figure stands within three words of a word asked about ("83,700 employees"). */
  near: boolean;
  /** Per part of the question (question.ts parts), whether it states all of that part. */
  strongParts: boolean[];
  /**
   * Asked about the whole organisation ("News Corp's revenues"), it speaks of the whole
   * ("Revenues decreased $506 million"), not of a part ("Flash revenue", "revenues at the
   * Digital Real Estate Services segment"); false when the question asks of no whole.
   */
  whole: boolean;
};

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

const writtenWords = (text: string) => nameWords(text).map((w) => `=${w}`);

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
const nameSequence = (text: string) => nameWords(text).map(normalizedNameWord);

/** Whether a text names one of the aliases (word runs). */
function namesAny(text: string, aliases: readonly string[]): boolean {
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

/**
 * A comparison naming an organisation the index does not know beside known ones cannot be
 * answered for that one: the answer declines.
 */
const unanswerableComparison = (q: QuestionAnalysis) =>
  q.entities.length > 0 && q.unknown.length > 0;

/** Whether sentences stating a question's answer may differ in their numbers (names, kinds). */
export const answersInWords = (figure: Figure) =>
  figure === null || figure === 'name' || figure === 'kind' || figure === 'rating';

/** Whether a number stands within three words of a word of the question's groups. */
function nearFigure(q: QuestionAnalysis, seq: readonly string[]): boolean {
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
function speaksOfWhole(whole: TermGroup[], sentence: string): boolean {
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

export function judgeSentence(
  q: QuestionAnalysis,
  sentence: string,
  doc: { entity: string | null; title: string },
): Evidence {
  let entity: string | null = null;
  let entityOk = true;
  if (unanswerableComparison(q)) {
    entityOk = false;
  } else if (q.entities.length > 0) {
    const own = q.entities.find((e) => e.key === doc.entity);
    if (own) {
      entity = own.key;
    } else if (doc.entity === null) {
      const named = q.entities.find(
        (e) => namesAny(sentence, e.aliases) || namesAny(doc.title, e.aliases),
      );
      entity = named?.key ?? null;
    }
    entityOk = entity !== null;
  } else if (q.unknown.length > 0) {
    entityOk =
      doc.entity === null && q.unknown.some((u) => namesAny(sentence, [nameSequence(u).join(' ')]));
  }
  const seq = stemSequence(sentence);
  const set = new Set([...seq, ...writtenWords(sentence)]);
  const held = q.groups.filter((g) => holdsGroup(seq, set, g)).length;
  // Each part of a question ("How much did sales grow, and what drove it?") is answered on its
  // own: a sentence may answer either; the first part's is what a strong answer states.
  const parts = q.parts ?? [{ groups: q.groups, figure: q.figure }];
  // A document's title sets what its sentences speak of ("RBI holds repo rate": its "the policy
  // rate unchanged" answers what the RBI decided about the repo rate): a term it holds counts,
  // though the sentence must hold one of its own.
  const titleSeq = stemSequence(doc.title);
  const titleSet = new Set([...titleSeq, ...writtenWords(doc.title)]);
  const judged = parts.map((part) => {
    const own = part.groups.map((g) => holdsGroup(seq, set, g));
    const holding = part.groups.map((g, i) => own[i] || holdsGroup(titleSeq, titleSet, g));
    const n = holding.length;
    const count = own.some(Boolean) ? holding.filter(Boolean).length : 0;
    // The part's last term is the head of what it asks ("on-time delivery RATE"): held always.
    const head = n === 0 || holding[n - 1];
    const needed = n <= 2 ? n : n <= 4 ? n - 1 : Math.ceil(n * 0.6);
    const figure = holdsFigure(sentence, { ...q, figure: part.figure }, part.groups);
    const eligible = entityOk && figure && head && count >= needed && (count > 0 || n === 0);
    return { figure, eligible, strong: eligible && n > 0 && count === n };
  });
  const figure = judged[0].figure;
  const eligible = judged.some((j) => j.eligible);
  const strong = judged[0].strong;
  const strongParts = judged.map((j) => j.strong);
  return {
    entity,
    entityOk,
    held,
    figure,
    eligible,
    strong,
    near: judged[0].eligible && nearFigure(q, seq),
    strongParts,
    whole: eligible && speaksOfWhole(wholeGroups(q), sentence),
  };
}

/**
 * Whether a passage may be cited for the question's organisations at all: its document is a
 * named organisation's, or a document of no one naming it (an unknown organisation: only the
 * latter). A question naming none: any passage.
 */
export function passageFits(
  q: QuestionAnalysis,
  p: { entity: string | null; title: string; text: string },
): boolean {
  if (q.entities.length > 0) {
    if (q.entities.some((e) => e.key === p.entity)) return true;
    return (
      p.entity === null &&
      q.entities.some((e) => namesAny(p.text, e.aliases) || namesAny(p.title, e.aliases))
    );
  }
  if (q.unknown.length > 0) {
    return (
      p.entity === null && q.unknown.some((u) => namesAny(p.text, [nameSequence(u).join(' ')]))
    );
  }
  return true;
}

/** The sentences of passages judged, for the answerers' decline and quality rules. */
export function bestEvidence(
  q: QuestionAnalysis,
  passages: ReadonlyArray<{ entity: string | null; title: string; text: string }>,
  split: (text: string) => Array<{ start: number; end: number }>,
): { eligible: boolean; strong: boolean } {
  let eligible = false;
  for (const p of passages) {
    for (const span of split(p.text)) {
      const judged = judgeSentence(q, p.text.slice(span.start, span.end), p);
      if (judged.strong) return { eligible: true, strong: true };
      if (judged.eligible) eligible = true;
    }
  }
  return { eligible, strong: false };
}
