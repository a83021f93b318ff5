import { fold, wordsOf } from '../../contract/words';
import { termStems, type KeywordExpr } from '../../contract/keyword-query';

/**
 * The query side shared by both engines: each query word as the index holds it, its STEM
 * (contract/words.ts: "employ" matches "employed", "companies" matches "company"), a phrase as
 * its stems in a row, and a parsed expression rendered in each engine's syntax. Only stems of
 * letters and digits ever reach an engine, each quoted: nothing a user typed is read as engine
 * syntax (column filters, NEAR, prefixes, operators of the engine).
 */

/** Accent folding (contract/words.ts), re-exported for the search files that fold. */
export { fold };

/** The words of a text as the index reads them (contract/words.ts `wordsOf`). */
export const searchWords = (text: string): string[] => wordsOf(text);

/** A term's stems (contract/keyword-query.ts `termStems`), re-exported for the engines. */
export { termStems };

/** Groups nested deeper than this are read flat (see `normalizeExpr`). */
export const MAX_EXPR_DEPTH = 12;

/**
 * A query reads at most this many words (a phrase's words each count; repeats are read once):
 * the rest of a longer query is left out, in reading order, as web search engines do. Every
 * statement of a search costs per word (FTS5 ranks a match by each of its phrases' positions:
 * 2,500 words of "a" took 10 s on SQLite, with every other request waiting behind it), so a
 * bound on the words is a bound on each statement; no query a person writes comes near it.
 */
export const MAX_QUERY_TERMS = 32;

const wordsIn = (e: KeywordExpr): KeywordExpr[] =>
  e.type === 'term' ? [e] : e.type === 'not' ? [] : e.items.flatMap(wordsIn);

/**
 * Groups of the same operator merged, double negations dropped, repeated parts of a group read
 * once (`a a a` is `a`, `employ employed` is `employ`: the same stem), groups nested deeper
 * than MAX_EXPR_DEPTH read flat. Each part is keyed by what it matches (its stems, bottom-up),
 * a word's stems worked out once however often it is repeated.
 */
function simplify(expr: KeywordExpr | null): KeywordExpr | null {
  const stemsOf = new Map<string, string>();
  const termKey = (words: string[]) => {
    const text = words.join(' ');
    let key = stemsOf.get(text);
    if (key === undefined) {
      key = `"${termStems(words).join(' ')}"`;
      stemsOf.set(text, key);
    }
    return key;
  };
  /** A part with its key; a group keeps its parts keyed, a negation what it negates. */
  type Keyed = { e: KeywordExpr; key: string; parts?: Keyed[]; negated?: Keyed };
  const walk = (e: KeywordExpr, depth: number): Keyed | null => {
    if (e.type === 'term') return { e, key: termKey(e.words) };
    if (depth >= MAX_EXPR_DEPTH) {
      const words = wordsIn(e);
      return words.length === 0 ? null : walk({ type: 'and', items: words }, 0);
    }
    if (e.type === 'not') {
      const inner = walk(e.item, depth + 1);
      if (!inner) return null;
      return (
        inner.negated ?? { e: { type: 'not', item: inner.e }, key: `-${inner.key}`, negated: inner }
      );
    }
    const items: Keyed[] = [];
    const seen = new Set<string>();
    const add = (item: Keyed) => {
      if (seen.has(item.key)) return;
      seen.add(item.key);
      items.push(item);
    };
    for (const item of e.items) {
      const done = walk(item, depth + 1);
      if (!done) continue;
      if (done.e.type === e.type && done.parts) done.parts.forEach(add);
      else add(done);
    }
    if (items.length === 0) return null;
    if (items.length === 1) return items[0];
    return {
      e: { type: e.type, items: items.map((i) => i.e) },
      key: `${e.type}(${items.map((i) => i.key).join(' ')})`,
      parts: items,
    };
  };
  return expr ? (walk(expr, 0)?.e ?? null) : null;
}

/**
 * The expression with at most MAX_QUERY_TERMS words, the first ones in reading order: a term
 * past the budget is left out (a negation or group left empty goes with it), a phrase that
 * crosses it keeps its first words.
 */
function withinBudget(expr: KeywordExpr | null): KeywordExpr | null {
  let left = MAX_QUERY_TERMS;
  const walk = (e: KeywordExpr): KeywordExpr | null => {
    if (e.type === 'term') {
      const words = e.words.flatMap((w) => wordsOf(w));
      if (left <= 0 && words.length > 0) return null;
      const kept = words.slice(0, left);
      left -= kept.length;
      return kept.length === words.length ? e : { type: 'term', words: kept };
    }
    if (e.type === 'not') {
      const inner = walk(e.item);
      return inner ? { type: 'not', item: inner } : null;
    }
    const items = e.items.map(walk).filter((i): i is KeywordExpr => i !== null);
    if (items.length === 0) return null;
    return items.length === 1 ? items[0] : { type: e.type, items };
  };
  return expr ? walk(expr) : null;
}

/**
 * The expression both engines run (and highlights mark): groups of the same operator merged
 * (`a (b c)` is `a b c`), double negations dropped, repeats read once, groups nested deeper
 * than MAX_EXPR_DEPTH read flat, as all of their words (FTS5's parser refuses an expression
 * nested about thirty deep; no query a person writes comes near), and at most MAX_QUERY_TERMS
 * words. Simplified again after the cut, since dropping a part can leave a group of one.
 */
export function normalizeExpr(expr: KeywordExpr | null): KeywordExpr | null {
  return simplify(withinBudget(simplify(expr)));
}

/** Every stem the engines look up for an expression (the planner counts documents by them). */
export function exprWords(expr: KeywordExpr | null): string[] {
  const out = new Set<string>();
  const walk = (e: KeywordExpr) => {
    if (e.type === 'term') {
      for (const s of termStems(e.words)) out.add(s);
    } else if (e.type === 'not') {
      walk(e.item);
    } else {
      for (const item of e.items) walk(item);
    }
  };
  if (expr) walk(expr);
  return [...out];
}

export type Share = { lo: number; hi: number; mid: number };

/**
 * The share of documents an expression matches, from each stem's document count (`docsOf`
 * takes a stem: stems.ts counts documents per stem): bounds that always hold (`lo`, `hi`: a
 * phrase is at most as common as its rarest stem, an AND as its rarest part) and an estimate
 * taking words as independent (`mid`). The planner decides by them (planner.ts).
 */
export function shareBounds(
  expr: KeywordExpr,
  docsOf: (stem: string) => number,
  total: number,
): Share {
  const share = (n: number) => (total > 0 ? Math.min(1, n / total) : 0);
  const of = (e: KeywordExpr): Share => {
    switch (e.type) {
      case 'term': {
        const docs = termStems(e.words).map(docsOf);
        const hi = share(Math.min(...docs));
        const lo = docs.length === 1 ? hi : 0;
        return { lo, hi, mid: hi };
      }
      case 'and': {
        const parts = e.items.map(of);
        const hi = Math.min(...parts.map((p) => p.hi));
        const lo = Math.max(0, parts.reduce((s, p) => s + p.lo, 0) - (parts.length - 1));
        return { lo, hi, mid: parts.reduce((m, p) => m * p.mid, 1) };
      }
      case 'or': {
        const parts = e.items.map(of);
        return {
          lo: Math.max(...parts.map((p) => p.lo)),
          hi: Math.min(
            1,
            parts.reduce((s, p) => s + p.hi, 0),
          ),
          mid: 1 - parts.reduce((m, p) => m * (1 - p.mid), 1),
        };
      }
      case 'not': {
        const inner = of(e.item);
        return { lo: 1 - inner.hi, hi: 1 - inner.lo, mid: 1 - inner.mid };
      }
    }
  };
  return of(expr);
}

/**
 * What an expression asks to find, its negations left out: what relevance is scored on
 * (PostgreSQL's ts_rank scores a negated word as a miss). Null when it only excludes.
 */
export function positivePart(expr: KeywordExpr): KeywordExpr | null {
  if (expr.type === 'term') return expr;
  if (expr.type === 'not') return null;
  const items = expr.items.map(positivePart).filter((e): e is KeywordExpr => e !== null);
  if (items.length === 0) return null;
  return items.length === 1 ? items[0] : { type: expr.type, items };
}

/** The longest word a tsvector holds here (tsvector refuses lexemes over 2047 bytes). */
export const MAX_LEXEME = 255;

/** Splits AND items into what must match and what must not. */
const partition = (items: KeywordExpr[]) => ({
  pos: items.filter((e) => e.type !== 'not'),
  neg: items.flatMap((e) => (e.type === 'not' ? [e.item] : [])),
});

/**
 * FTS5 MATCH text for an expression over `columns` (an FTS5 column set: `{title body}`, never
 * the facets column, whose tokens only the engine writes). Every word is a quoted
 * FTS5 string (words hold only letters and digits, so nothing inside can end the string).
 * FTS5's NOT is binary (`a NOT b`), so a negation with nothing beside it (`-tesla`, `a OR -b`)
 * is taken from `universe`: a MATCH text every document matches (sqlite.ts's facets column).
 */
export function toFts5(expr: KeywordExpr, universe: string, columns: string): string {
  // A word is its stem, a phrase its stems in a row (the index holds stems: sqlite.ts).
  const leaf = (words: string[]) => `${columns} : "${termStems(words).join(' ')}"`;
  const render = (e: KeywordExpr): string => {
    switch (e.type) {
      case 'term':
        return leaf(e.words);
      case 'not':
        return `(${universe}) NOT (${render(e.item)})`;
      case 'or':
        return e.items.map((item) => `(${render(item)})`).join(' OR ');
      case 'and': {
        const { pos, neg } = partition(e.items);
        const positive = pos.length
          ? pos.map((item) => `(${render(item)})`).join(' AND ')
          : `(${universe})`;
        if (neg.length === 0) return positive;
        return `(${positive}) NOT (${neg.map((item) => `(${render(item)})`).join(' OR ')})`;
      }
    }
  };
  return render(expr);
}

/**
 * A PostgreSQL tsquery in its text form, cast with `::tsquery` from a bound parameter (never
 * through a parser of user text): stems single-quoted (letters and digits only), `<->`
 * between a phrase's stems, `&`, `|`, `!`. The index's tsvectors are written from the same
 * stems (postgres.ts), so both sides tokenise alike.
 */
export function toTsquery(expr: KeywordExpr): string {
  // A word the index cannot hold (postgres.ts leaves out words over MAX_LEXEME characters,
  // and tsquery refuses them) matches nothing: a lexeme and its negation together.
  const lexeme = (w: string) => (w.length > MAX_LEXEME ? "('x' & !'x')" : `'${w}'`);
  const render = (e: KeywordExpr): string => {
    switch (e.type) {
      case 'term': {
        const stems = termStems(e.words);
        return stems.length ? `(${stems.map(lexeme).join(' <-> ')})` : "('x' & !'x')";
      }
      case 'not':
        return `!${render(e.item)}`;
      case 'or':
        return `(${e.items.map(render).join(' | ')})`;
      case 'and':
        return `(${e.items.map(render).join(' & ')})`;
    }
  };
  return render(expr);
}
