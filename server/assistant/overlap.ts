import type { TextSpan } from '../../contract/assistant';
import { stem } from '../../contract/words';
import { splitSentences } from './sentences';
import { contentWords, wordSet } from './words';

/**
 * Does a passage support a sentence? A citation is kept only when it does (openai.ts drops the
 * rest), and the spans of the passage it returns are the citation's highlight_indexes (both
 * answerers). The test is word overlap, not meaning: cheap, deterministic and explainable, and
 * it catches what matters most, a model citing a passage that says nothing of the kind. Content
 * words are those retrieval reads (words.ts: stop words out, folded as the index holds them).
 */

/** Fewer matched content words than this never support a sentence (one shared name is luck). */
export const MIN_SUPPORT_WORDS = 2;
/** The share of a sentence's content words the passage must hold. */
export const SUPPORT_SHARE = 0.5;
/** Passage sentences returned as spans at most. */
const MAX_SPANS = 3;

/** Whether `stems` (a text's words.ts wordSet) holds `word` by its stem (contract/words.ts). */
const holds = (stems: ReadonlySet<string>, word: string): boolean => stems.has(stem(word));

/**
 * The spans of `passageText` that support `sentence`, or null when it does not: the passage
 * must hold at least half of the sentence's content words, and at least MIN_SUPPORT_WORDS of
 * them, by stem ("employed" for "employs"). The spans are the passage's sentences that hold them:
 * the one holding the most, then any that add words the earlier ones lack (a sentence may join
 * two facts of one passage), at most three, in passage order.
 */
export function supportSpans(sentence: string, passageText: string): TextSpan[] | null {
  const wanted = contentWords(sentence);
  const passageWords = wordSet(passageText);
  const matched = wanted.filter((w) => holds(passageWords, w));
  const needed = Math.max(MIN_SUPPORT_WORDS, Math.ceil(wanted.length * SUPPORT_SHARE));
  if (matched.length < needed) return null;

  const candidates = splitSentences(passageText).map((span) => {
    const words = wordSet(passageText.slice(span.start, span.end));
    return { span, found: new Set(matched.filter((w) => holds(words, w))) };
  });
  const chosen: TextSpan[] = [];
  const covered = new Set<string>();
  while (chosen.length < MAX_SPANS) {
    let best: (typeof candidates)[number] | null = null;
    let bestGain = 0;
    for (const c of candidates) {
      let gain = 0;
      for (const w of c.found) if (!covered.has(w)) gain++;
      if (gain > bestGain) {
        best = c;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.push(best.span);
    for (const w of best.found) covered.add(w);
  }
  return chosen.sort((a, b) => a.start - b.start);
}
