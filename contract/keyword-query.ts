import { keywordProblem } from './boards';
import { stem, wordsOf } from './words';

/**
 * The boolean keyword language of custom feeds (002 §5), evaluated against a document's title
 * and text by whole words, case-insensitively:
 *
 * - `word`, `"a phrase"` (straight or curly quotes, single, double or triple): a word, or
 *   words in a row; a word with inner punctuation (`10-K`, `Moody's`, `S&P`) is the phrase
 *   of its parts;
 * - `a b`, `a AND b`, `a + b`, `+b`: both; `a OR b`, `a | b`: either;
 * - `NOT b`, `-b`, `a NOT b`, `a - b`: without; parentheses group.
 *
 * AND binds tighter than OR. Parsing never throws: what the validator (contract
 * `keywordProblem`) would refuse is still read as well as it can be (a dangling operator is
 * ignored, an unclosed quote runs to the end, a stray parenthesis is skipped), and `problem`
 * carries the validator's message.
 */

export type KeywordExpr =
  | { type: 'term'; words: string[] }
  | { type: 'and'; items: KeywordExpr[] }
  | { type: 'or'; items: KeywordExpr[] }
  | { type: 'not'; item: KeywordExpr };

export type ParsedKeyword = { expr: KeywordExpr | null; problem: string | null };

/**
 * The words of a text: lower-cased, accents folded, letters and digits in a row, as search
 * reads them (contract/words.ts, the one tokeniser). Feeds match them as written, not by stem.
 */
export { wordsOf };

/** A document's words, computed once and matched against any number of keywords. */
export type TextIndex = { tokens: string[]; words: Set<string> };

export const textIndex = (...texts: Array<string | null | undefined>): TextIndex => {
  const tokens = wordsOf(texts.filter(Boolean).join('\n'));
  return { tokens, words: new Set(tokens) };
};

type Token =
  | { t: 'word'; words: string[]; raw: string }
  | { t: 'and' | 'or' | 'not' | 'plus' | 'lparen' | 'rparen' };

const QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2018': "'",
  '\u2019': "'",
};
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const endsWord = (c: string) => isSpace(c) || c === '(' || c === ')' || c === '|';

function lex(input: string): Token[] {
  const chars = [...input];
  const out: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i];
    if (isSpace(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      out.push({ t: c === '(' ? 'lparen' : 'rparen' });
      i++;
    } else if (c === '|') {
      out.push({ t: 'or' });
      i++;
    } else if (c === '+' || c === '-') {
      out.push({ t: c === '+' ? 'plus' : 'not' });
      i++;
    } else if (QUOTES[c]) {
      // A quoted phrase: the run of one quote kind (up to three) opens, the same run closes.
      const kind = QUOTES[c];
      let run = 0;
      while (run < 3 && QUOTES[chars[i + run]] === kind) run++;
      let j = i + run;
      let close = -1;
      while (j < chars.length && close < 0) {
        let k = 0;
        while (k < run && QUOTES[chars[j + k]] === kind) k++;
        if (k === run) close = j;
        else j++;
      }
      const end = close < 0 ? chars.length : close;
      const raw = chars.slice(i + run, end).join('');
      out.push({ t: 'word', words: wordsOf(raw), raw });
      i = close < 0 ? chars.length : close + run;
    } else {
      let j = i;
      while (j < chars.length && !endsWord(chars[j])) j++;
      const raw = chars.slice(i, j).join('');
      if (raw === 'AND') out.push({ t: 'and' });
      else if (raw === 'OR') out.push({ t: 'or' });
      else if (raw === 'NOT') out.push({ t: 'not' });
      else out.push({ t: 'word', words: wordsOf(raw), raw });
      i = j;
    }
  }
  return out;
}

/** Deeper nesting than this is read flat: parsing must not exhaust the stack on any input. */
const MAX_DEPTH = 64;

const combine = (type: 'and' | 'or', items: Array<KeywordExpr | null>): KeywordExpr | null => {
  const kept = items.filter((e): e is KeywordExpr => e !== null);
  if (kept.length <= 1) return kept[0] ?? null;
  return { type, items: kept };
};

function parseTokens(tokens: Token[]): KeywordExpr | null {
  let pos = 0;
  const peek = () => tokens[pos];
  const startsUnary = (tok: Token | undefined) =>
    tok !== undefined &&
    (tok.t === 'word' || tok.t === 'lparen' || tok.t === 'not' || tok.t === 'plus');

  const parseOr = (depth: number): KeywordExpr | null => {
    const items = [parseAnd(depth)];
    while (peek()?.t === 'or') {
      pos++;
      items.push(parseAnd(depth));
    }
    return combine('or', items);
  };
  const parseAnd = (depth: number): KeywordExpr | null => {
    const items: Array<KeywordExpr | null> = [];
    for (;;) {
      const tok = peek();
      if (tok?.t === 'and') {
        pos++;
      } else if (!startsUnary(tok)) {
        break;
      }
      items.push(parseUnary(depth));
    }
    return combine('and', items);
  };
  const parseUnary = (depth: number): KeywordExpr | null => {
    // Prefixes in a loop, not by recursion: a long run of NOTs must not exhaust the stack.
    let negate = false;
    for (let tok = peek(); tok?.t === 'not' || tok?.t === 'plus'; tok = peek()) {
      if (tok.t === 'not') negate = !negate;
      pos++;
    }
    const inner = parsePrimary(depth);
    return negate && inner ? { type: 'not', item: inner } : inner;
  };
  const parsePrimary = (depth: number): KeywordExpr | null => {
    // Too deep: parentheses are read as nothing (their partners are skipped as stray).
    if (depth >= MAX_DEPTH) while (peek()?.t === 'lparen') pos++;
    const tok = peek();
    if (tok?.t === 'lparen') {
      pos++;
      const inner = parseOr(depth + 1);
      if (peek()?.t === 'rparen') pos++;
      return inner;
    }
    if (tok?.t === 'word') {
      pos++;
      return tok.words.length ? { type: 'term', words: tok.words } : null;
    }
    return null;
  };

  const parts: Array<KeywordExpr | null> = [];
  while (pos < tokens.length) {
    const before = pos;
    parts.push(parseOr(0));
    // What the grammar cannot place (a stray ")" or operator) is skipped, never fatal.
    if (pos === before || (pos < tokens.length && !startsUnary(peek()))) pos++;
  }
  return combine('and', parts);
}

/** Parses a keyword query; never throws. `expr` is null when nothing in it can match. */
export function parseKeywordQuery(input: string): ParsedKeyword {
  const text = typeof input === 'string' ? input : '';
  return { expr: parseTokens(lex(text)), problem: keywordProblem(text) };
}

const hasPhrase = (tokens: string[], words: string[]): boolean => {
  const [first] = words;
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    if (tokens[i] !== first) continue;
    for (let k = 1; k < words.length; k++) if (tokens[i + k] !== words[k]) continue outer;
    return true;
  }
  return false;
};

/** Whether a document's words satisfy the expression. */
export function evaluateKeyword(expr: KeywordExpr, doc: TextIndex): boolean {
  switch (expr.type) {
    case 'term':
      return expr.words.length === 1
        ? doc.words.has(expr.words[0])
        : expr.words.every((w) => doc.words.has(w)) && hasPhrase(doc.tokens, expr.words);
    case 'and':
      return expr.items.every((e) => evaluateKeyword(e, doc));
    case 'or':
      return expr.items.some((e) => evaluateKeyword(e, doc));
    case 'not':
      return !evaluateKeyword(expr.item, doc);
  }
}

/** A keyword as a test on a document; a keyword with nothing to match matches nothing. */
export function compileKeyword(input: string): (doc: TextIndex) => boolean {
  const { expr } = parseKeywordQuery(input);
  return expr ? (doc) => evaluateKeyword(expr, doc) : () => false;
}

/**
 * The stems a term (a word or a phrase) is matched by, in order: each of its words folded,
 * lower-cased and stemmed as the search index's words are (contract/words.ts).
 */
export const termStems = (words: readonly string[]): string[] =>
  words.flatMap((w) => wordsOf(w)).map(stem);

/**
 * What a query marks in a document: every word or phrase of it that is not negated (what the
 * document must lack is never marked), as its stems, in reading order, each once. Search's
 * highlights (server/search/highlight.ts) and the preview's marks
 * (src/features/search/mark-text.ts) both mark by it.
 */
export function markedTerms(expr: KeywordExpr | null): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  // Iterative: a parsed query is bounded in depth, but this stays cheap on any shape.
  const stack: KeywordExpr[] = expr ? [expr] : [];
  while (stack.length) {
    const e = stack.pop()!;
    if (e.type === 'term') {
      const stems = termStems(e.words);
      const key = stems.join(' ');
      if (stems.length === 0 || seen.has(key)) continue;
      seen.add(key);
      out.push(stems);
    } else if (e.type === 'and' || e.type === 'or') {
      for (let i = e.items.length - 1; i >= 0; i--) stack.push(e.items[i]);
    }
  }
  return out;
}
