/** An ellipsis at a fragment's edge: the character, three dots, and the spaces around them. */
const LEADING_CUT = /^(?:\s|…|\.{3})+/u;
const TRAILING_CUT = /(?:\s|…|\.{3})+$/u;
/** Tags and character references: what a fragment's HTML holds beside its text. */
const MARKUP = /<[^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z]+);/giu;
/** A fragment worth showing holds at least one letter or digit. */
const WORDISH = /[\p{L}\p{N}]/u;

/**
 * Snippets (HTML whose only markup is `<em>`, each with "…" where it was cut) joined into one
 * line that reads cleanly: fragments that hold no letter or digit ("$…", "…", "—") are left out,
 * each fragment's own edge ellipses are dropped, and one " … " stands between two fragments. The
 * line opens with "…" when its first fragment was cut at the start, and ends with "…" when its
 * last was cut at the end.
 */
export function joinSnippets(snippets: readonly string[]): string {
  const kept = snippets
    .map((html) => ({
      html: html.replace(LEADING_CUT, '').replace(TRAILING_CUT, ''),
      cutBefore: /^\s*(?:…|\.{3})/u.test(html),
      cutAfter: /(?:…|\.{3})\s*$/u.test(html),
    }))
    .filter((s) => WORDISH.test(s.html.replace(MARKUP, '')));
  if (kept.length === 0) return '';
  const first = kept[0];
  const last = kept[kept.length - 1];
  return (
    (first.cutBefore ? '…' : '') + kept.map((s) => s.html).join(' … ') + (last.cutAfter ? '…' : '')
  );
}
