import { isStopWord, stem } from '../../contract/words';
import type { Db } from '../db/schema';
import {
  entitiesByAlias,
  entitiesStartingWith,
  isCommonNameWord,
  nameWords,
  normalizedNameWord,
} from '../search';
import { FILLER, groupOf, isNotOrganisation, type TermGroup } from './question-words';

export { isNotOrganisation, type TermGroup };

/**
 * What a question asks, as both answerers and retrieval read it (issue 16):
 *
 * - the organisations it names, recognised against the filers the index knows (entities.ts:
 *   names, short names, initials, tickers), each a constraint: only that organisation's
 *   documents, or sentences naming it in a document of no one, may answer;
 * - an organisation it names that the index does not know ("Microsoft's revenue" when no
 *   document is Microsoft's): only sentences naming it, in documents of no one, may answer;
 * - its key terms, each a group of words that say the same in filings ("employ": employees,
 *   people, persons, headcount; "headquartered": based, principal executive offices): a sentence
 *   answers only when it holds what is asked;
 * - whether it asks for a figure (how many, how much, what share...) or a date (when, what
 *   year): then the sentence must hold one.
 */

export type NamedEntity = {
  key: string;
  name: string;
  /** The question's words that named it (as written). */
  mention: string;
  /** The aliases the index knows it by (lower-cased words joined by spaces). */
  aliases: string[];
};

/** What the answer must hold: a figure of a kind, a date, or (who competes...) a name. */
export type Figure =
  | 'number'
  | 'count'
  | 'amount'
  | 'percent'
  | 'change'
  | 'date'
  | 'place'
  | 'name'
  | 'kind'
  | 'rating'
  | null;

export type QuestionAnalysis = {
  question: string;
  entities: NamedEntity[];
  /** Organisation names the question gives that no filer of the index has. */
  unknown: string[];
  /** What the question asks (every group must be held for a HIGH answer). */
  groups: TermGroup[];
  /**
   * A question of two parts ("How much did sales grow, and what drove it?"): each part's groups
   * and figure, the first part first. Absent: one part (`groups`, `figure`).
   */
  parts?: Array<{ groups: TermGroup[]; figure: Figure }>;
  /** Words that help ranking only: years, "fiscal", "annual". */
  soft: string[];
  figure: Figure;
  /** The words retrieval asks the engine for (groups' words and soft words). */
  searchWords: string[];
};

const ORG_SUFFIX =
  /^(inc|corp|corporation|co|company|ltd|limited|plc|llc|holdings|holding|group|ag|sa|nv|se)$/i;

type Token = { text: string; lower: string; start: number; end: number; possessive: boolean };

/** The question's words as written (letters, digits, inner & . - '), with their places. */
function tokensOf(question: string): Token[] {
  const out: Token[] = [];
  const re = /[\p{L}\p{N}](?:[\p{L}\p{N}&.-]*[\p{L}\p{N}])?(?:['’]s\b|['’](?=\s|$))?/gu;
  for (const m of question.matchAll(re)) {
    const possessive = /['’]s?$/.test(m[0]);
    const text = m[0].replace(/['’]s?$/, '');
    out.push({
      text,
      lower: normalizedNameWord(
        text
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase()
          .replace(/[.&-]/g, ''),
      ),
      start: m.index,
      end: m.index + m[0].length,
      possessive,
    });
  }
  return out;
}

const isCaps = (t: Token) => /^[\p{Lu}\p{N}&.-]{2,}$/u.test(t.text) && /\p{Lu}/u.test(t.text);
const isCapitalised = (t: Token) => /^\p{Lu}/u.test(t.text);

/** Most words of a name looked up as one alias. */
const MAX_NAME_WORDS = 6;

/** The letters of `token` in order inside `key` (a ticker of a name: NKE of "nike"). */
const subsequence = (token: string, key: string) => {
  let at = 0;
  for (const c of token) {
    at = key.indexOf(c, at);
    if (at < 0) return false;
    at++;
  }
  return true;
};

/**
 * Whether capitals are the initials of a name of more words and at most one more letter (PANW:
 * Palo Alto Networks; WDC: Western Digital), or spell the rest from its last word. A word that merely starts with two initials is no
 * ticker of them: NIKE is not Narmada Infrastructure ("ke" is not in "infrastructure").
 */
const initialsTicker = (token: string, words: string[]) => {
  const initials = words.map((w) => w[0]).join('');
  if (!token.startsWith(initials)) return false;
  const last = words[words.length - 1]!;
  const rest = token.slice(initials.length);
  return rest.length <= 1 || subsequence(rest, last.slice(1));
};

/** Short capitals that are finance words, never a ticker. */
const ACRONYMS = new Set(
  `ceo cfo coo cto cio gaap ebitda ebit eps roic roe roa roi capex opex fx usd eur gbp jpy cny
  inr chf aud cad sec irs ftc doj fda epa eu uk us usa un imf ai ml esg ipo rpo arr mrr ssd hdd
  nand dram hr it pc ip saas q1 q2 q3 q4 h1 h2 fy ytd yoy qoq mda kpi gdp cpi ppp nol llm api
  tam sam ltv cac nps cagr wacc rbi ecb boe boj pboc snb rba rbnz fomc sebi cftc finra fca
  esma oecd opec wto nse bse lse nyse`.split(/\s+/),
);

async function namedEntities(
  db: Db,
  tokens: Token[],
): Promise<{ entities: NamedEntity[]; used: Set<number> }> {
  const phrases: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let n = 1; n <= MAX_NAME_WORDS && i + n <= tokens.length; n++) {
      phrases.push(
        tokens
          .slice(i, i + n)
          .map((t) => t.lower)
          .join(' '),
      );
    }
  }
  const found = await entitiesByAlias(db, phrases);
  const byAlias = new Map<string, typeof found>();
  for (const f of found) byAlias.set(f.alias, [...(byAlias.get(f.alias) ?? []), f]);
  const used = new Set<number>();
  const entities = new Map<string, NamedEntity>();
  // Longest names first, left to right; a word names one organisation at most.
  const spans: Array<{ i: number; n: number }> = [];
  for (let n = MAX_NAME_WORDS; n >= 1; n--) {
    for (let i = 0; i + n <= tokens.length; i++) spans.push({ i, n });
  }
  for (const { i, n } of spans) {
    const words = tokens.slice(i, i + n);
    if (words.some((_, k) => used.has(i + k))) continue;
    const alias = words.map((t) => t.lower).join(' ');
    const hits = (byAlias.get(alias) ?? []).filter(
      (h) => (!h.caps || words.every(isCaps)) && (words.some(isCapitalised) || n > 1 || h.caps),
    );
    if (hits.length === 0) continue;
    for (let k = 0; k < n; k++) used.add(i + k);
    // Its legal form after the name is part of it ("Verde Bio Holdings' fiscal year").
    for (let k = i + n; k < tokens.length && ORG_SUFFIX.test(tokens[k].text); k++) used.add(k);
    const mention = words.map((t) => t.text).join(' ');
    for (const h of hits) {
      const e = entities.get(h.key) ?? { key: h.key, name: h.name, mention, aliases: [] };
      if (!e.aliases.includes(alias)) e.aliases.push(alias);
      entities.set(h.key, e);
    }
  }
  // A ticker the index does not list: capitals whose letters spell, in order, exactly one
  // known one-word filer's name from its first letter (NKE: Nike; FDX: FedEx), or that start
  // with the initials of a name of more words (PANW); capitals followed by a capitalised word
  // are a name of their own ("REA Group"). One lookup per first letter.
  const starting = new Map<string, Awaited<ReturnType<typeof entitiesStartingWith>>>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (used.has(i) || !isCaps(t) || t.lower.length < 2 || t.lower.length > 5) continue;
    if (ACRONYMS.has(t.lower) || !/^[a-z]+$/.test(t.lower)) continue;
    if (tokens[i + 1] && isCapitalised(tokens[i + 1]) && !used.has(i + 1)) continue;
    const letter = t.lower[0];
    if (!starting.has(letter)) starting.set(letter, await entitiesStartingWith(db, letter));
    const candidates = starting.get(letter)!.filter((c) => {
      const words = c.key.split(' ');
      return words.length === 1
        ? subsequence(t.lower.slice(1), c.key.slice(1))
        : initialsTicker(t.lower, words); // PANW: Palo Alto Networks
    });
    if (candidates.length !== 1) continue;
    used.add(i);
    const c = candidates[0];
    const e = entities.get(c.key) ?? { key: c.key, name: c.name, mention: t.text, aliases: [] };
    entities.set(c.key, e);
  }
  // Each filer's every alias, for finding it named in sentences.
  if (entities.size > 0) {
    for (const e of entities.values()) {
      // Its key names it too, unless it is one common word ("news" of News Corp).
      if (!e.aliases.includes(e.key) && !isCommonNameWord(e.key)) e.aliases.push(e.key);
    }
  }
  return { entities: [...entities.values()], used };
}

/**
 * Capitalised words naming an organisation the index does not know: runs of capitalised words
 * that are not places, months, finance words or question words; the question's first word only
 * when it is possessive or followed by a legal suffix.
 */
function unknownNames(tokens: Token[], used: Set<number>): string[] {
  const out: string[] = [];
  let run: Token[] = [];
  const flush = () => {
    if (run.length > 0) out.push(run.map((t) => t.text).join(' '));
    run = [];
  };
  tokens.forEach((t, i) => {
    // A possessive names an owner even in lower case ("adidas's competitors").
    const owner =
      t.possessive && !FILLER.has(t.lower) && !isStopWord(t.lower) && t.lower.length > 2;
    const candidate =
      !used.has(i) &&
      (isCapitalised(t) || owner || (run.length > 0 && ORG_SUFFIX.test(t.text))) &&
      !/^\d/.test(t.text) &&
      !isNotOrganisation(t.lower) &&
      !(isCaps(t) && ACRONYMS.has(t.lower)) &&
      (i > 0 || t.possessive || ORG_SUFFIX.test(tokens[1]?.text ?? '') || isCaps(t));
    if (candidate) {
      run.push(t);
      if (t.possessive) flush();
    } else {
      flush();
    }
  });
  flush();
  return out;
}

const MONEY =
  /\b(?:revenues?|sales|income|profits?|earnings|debt|borrowings|backlog|cash|dividends?|ebitda|capex|expenses?|costs?|assets|liabilities|inventor(?:y|ies)|spend(?:ing)?|investments?|obligations|balance|value|price)\b/i;
const COUNTED =
  /\b(?:headcount|employees|workforce|staff|people|customers|stores|subscribers|users)\b/i;
const RATIO = /\b(?:rates?|ratios?|percentage|percent|share|margins?|growth|stake)\b/i;
const CHANGE =
  /\b(?:grow|grew|growth|rise|rose|increase[ds]?|fall|fell|decline[ds]?|drop(?:ped)?|change[ds]?|shrink|shrank)\b/i;
const DATE =
  /^\s*when\b|\b(?:what|which|in\s+what)\s+(?:year|date|month|day)\b|\bsince\s+when\b|\bfiscal\s+year\s+end/i;
const NAME = /^\s*(?:who|which\s+(?:companies|firms|competitors|customers|rivals))\b/i;
const PLACE = /^\s*where\b|\bin\s+which\s+(?:city|state|country)\b/i;
/** "What kinds of companies": a kind is the answer ("storage vendors"), not a name. */
const KIND = /\b(?:what|which)\s+(?:kinds?|types?|sorts?|categories)\s+of\b/i;
const WHAT_IS = /^\s*(?:what|which)\s+(?:is|was|were|are)\b/i;

/**
 * The figure a question asks for: a count (how many people), an amount of money (how much
 * debt, what were its sales), a share (what percentage), a change (how much did it grow: a
 * percentage or an amount), any number, a date (when), or a name (who competes).
 */
function figureOf(question: string): Figure {
  if (DATE.test(question)) return 'date';
  if (PLACE.test(question)) return 'place';
  if (NAME.test(question)) return 'name';
  if (KIND.test(question)) return 'kind';
  if (/\bhow\s+many\b/i.test(question)) return 'count';
  if (
    /\b(?:what|which)\s+(?:percentage|percent|share|portion|proportion|fraction)\b|%/i.test(
      question,
    )
  ) {
    return 'percent';
  }
  if (/\bby\s+how\s+much\b|\bhow\s+much\s+of\b/i.test(question)) return 'change';
  if (/\bhow\s+(?:much|fast|quickly)\b/i.test(question)) {
    return CHANGE.test(question) ? 'change' : MONEY.test(question) ? 'amount' : 'number';
  }
  if (/\bhow\s+(?:large|big|high|low)\b/i.test(question)) return 'number';
  if (/^\s*(?:what|which)\s+(?:[\w-]+\s+){0,2}ratings?\b/i.test(question)) return 'rating';
  if (
    WHAT_IS.test(question) ||
    /^\s*(?:compare|which|who)\b|\bvs\.?\b|\bversus\b/i.test(question)
  ) {
    // What is asked is named before the first preposition: "What are Nike's RISKS from
    // exchange rates" asks for risks, not a rate; "What was its REVENUE in 2023", a figure.
    const head = question.split(
      /(?<![\w-])(?:of|from|in|on|to|for|at|with|about|by|during|over|under|between|among|within)(?![\w-])/i,
    )[0];
    if (/\bratings?\b/i.test(head)) return 'rating';
    if (RATIO.test(head)) return 'number';
    if (CHANGE.test(head)) return 'change';
    if (COUNTED.test(head)) return 'count';
    if (MONEY.test(head)) return 'amount';
    if (/\b(?:rates?|ratios?|count|number|price|eps)\b/i.test(head)) return 'number';
  }
  return null;
}

/** A second question joined to the first. */
const SECOND_PART =
  /,?\s+and\s+(?=(?:what|how|why|who|where|when|which|did|does|do|is|are|was|were)\b)/i;

/**
 * An aside describes what is asked without being asked: "NetApp's deferred revenue (its
 * remaining performance obligations)", "deferred revenue balance, which approximates its
 * remaining performance obligations, at the end": its words are searched, not required.
 */
const ASIDE = /\([^()]*\)|,\s*which\b[^,?]*/gi;

/** Words of a question read at most (see analyseQuestion). */
export const MAX_QUESTION_TOKENS = 64;

/** When, not what: "at the end of fiscal 2023" asks for nothing to be held. */
const WHEN = /\b(?:at|by|as\s+of)\s+the\s+(?:end|close)\s+of\b|\bas\s+of\b/gi;

/** Reads a question (see the module's comment); looks its names up in the index. */
export async function analyseQuestion(db: Db, question: string): Promise<QuestionAnalysis> {
  // A question is read to its first MAX_QUESTION_TOKENS words: a pasted page is no question,
  // and every word costs lookups (names, groups, sentences judged).
  const tokens = tokensOf(question.replace(WHEN, (m) => ' '.repeat(m.length))).slice(
    0,
    MAX_QUESTION_TOKENS,
  );
  const { entities, used } = await namedEntities(db, tokens);
  // An organisation the index does not know counts when no known one is named, or when the
  // question compares ("Compare Western Digital and Kioxia": Kioxia must be answered too).
  const comparing = /^\s*compare\b|\bvs\.?\s|\bversus\b|\bcompared?\s+(?:to|with)\b/i.test(
    question,
  );
  const unknown = entities.length > 0 && !comparing ? [] : unknownNames(tokens, used);
  const unknownWords = new Set(unknown.flatMap((u) => nameWords(u)));
  const groups: TermGroup[] = [];
  const soft: string[] = [];
  const seen = new Set<string>();
  // Where a second question starts: ", and what drove it?".
  const second = SECOND_PART.exec(question);
  const boundary = second ? second.index : question.length;
  const asides = [...question.matchAll(ASIDE)].map((m) => [m.index, m.index + m[0].length]);
  const aside = (at: number) => asides.some(([from, to]) => at >= from && at < to);
  const firstGroups: TermGroup[] = [];
  // Where each group's word stands in the question, for the aside that renames it.
  const at = new Map<TermGroup, number>();
  tokens.forEach((t, i) => {
    if (used.has(i)) return;
    for (const word of nameWords(t.text)) {
      if (word.length < 2 && !/\d/.test(word)) continue;
      if (unknownWords.has(word)) continue;
      if (isStopWord(word)) continue;
      const s = stem(word);
      if (seen.has(s)) continue;
      seen.add(s);
      if (/^\d+$/.test(word) || FILLER.has(word) || aside(t.start)) {
        soft.push(word);
        continue;
      }
      const group = groupOf(word);
      groups.push(group);
      at.set(group, t.end);
      if (t.start < boundary) firstGroups.push(group);
    }
  });
  // An aside in brackets right after a term renames it ("direct-to-consumer (NIKE Direct)",
  // "deferred revenue (its remaining performance obligations)"): its words, in order, are one
  // more way of writing that term.
  for (const m of question.matchAll(/\(([^()]*)\)/g)) {
    const before = groups.filter((g) => (at.get(g) ?? -1) <= m.index).at(-1);
    if (!before || question.slice(at.get(before), m.index).trim() !== '') continue;
    const words = tokens
      .filter((t, i) => !used.has(i) && t.start > m.index && t.start < m.index + m[0].length)
      .flatMap((t) => nameWords(t.text))
      .filter((w) => !isStopWord(w) && !unknownWords.has(w))
      .map(stem);
    if (words.length > 0) before.alternatives.push(words);
  }
  const searchWords = [
    ...new Set([
      ...groups.flatMap((g) => g.search),
      ...soft.filter((w) => !FILLER.has(w) || w === 'fiscal'),
    ]),
  ];
  let figure = figureOf(question);
  // "Who has the bigger workforce, Seagate or Western Digital?" asks for figures, not names.
  if (figure === 'name' && entities.length > 1) figure = null;
  if (figure === null && entities.length > 1) figure = figureOf(`what is ${question}`);
  if (second && firstGroups.length > 0 && firstGroups.length < groups.length) {
    const rest = groups.filter((g) => !firstGroups.includes(g));
    const first = { groups: firstGroups, figure: figureOf(question.slice(0, boundary)) };
    const parts = [first, { groups: rest, figure: figureOf(question.slice(boundary)) }];
    return { question, entities, unknown, groups, soft, figure: first.figure, searchWords, parts };
  }
  return { question, entities, unknown, groups, soft, figure, searchWords };
}
