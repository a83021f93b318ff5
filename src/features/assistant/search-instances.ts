import type { AskSearchResult } from '../../../contract/assistant';

/**
 * Search mode's results (001 §2): every highlight of every result is one instance; the user
 * steps through them, and stepping past either end wraps around.
 */

export type Instance = { result: number; highlight: number };

export function instancesOf(results: readonly AskSearchResult[]): Instance[] {
  return results.flatMap((r, result) =>
    r.highlights.map((_, highlight) => ({ result, highlight })),
  );
}

/** The instance `by` steps (+1 next, -1 previous) from `at`, wrapping around `count`. */
export function stepInstance(at: number, by: number, count: number): number {
  if (count <= 0) return 0;
  return (((at + by) % count) + count) % count;
}

export type HighlightPart = { text: string; em: boolean };

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A highlight snippet as text parts: `<em>` marks the matched words; any other markup is not
 * markup here but text, shown as written (the page never parses a snippet as HTML).
 */
export function highlightParts(html: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  const push = (text: string, em: boolean) => {
    if (text) parts.push({ text: decode(text), em });
  };
  let at = 0;
  for (const match of html.matchAll(/<em>([\s\S]*?)<\/em>/gi)) {
    push(html.slice(at, match.index), false);
    push(match[1], true);
    at = match.index + match[0].length;
  }
  push(html.slice(at), false);
  return parts;
}
