import { corpusItems } from '../server/demo/corpus';
import { wordsOf } from '../contract/keyword-query';
import { benchSources } from './search-corpus';

/**
 * The bench's query terms, chosen by their measured document frequency in the built index
 * (the engine's termDocs), from the vocabulary of a sample of the same generator. A query word
 * matches every word of its stem (contract/words.ts), and termDocs counts the documents
 * holding the stem: exactly the documents a one-word query matches.
 */

/** `docs`: documents holding the word's stem; `upTo`: the same (words match by stem). */
export type Term = { word: string; docs: number; upTo: number };

/** Distinct words of 5,000 documents of the generator (`forms`: the same words). */
export const sampleVocabulary = (now: number): { words: string[]; forms: string[] } => {
  const words = new Set<string>();
  for (const { item } of corpusItems({
    seed: 99,
    count: 5000,
    now,
    sources: benchSources(),
    spanDays: 3650,
  })) {
    for (const w of wordsOf(`${item.title ?? ''}\n${item.text ?? ''}`)) words.add(w);
  }
  return { words: [...words], forms: [...words] };
};

/** Each word with its documents (termDocs: by stem). */
export const withFrequency = (words: string[], docsOf: Map<string, number>): Term[] =>
  words.map((word) => ({ word, docs: docsOf.get(word) ?? 0, upTo: docsOf.get(word) ?? 0 }));

/**
 * Up to `k` terms surely in the band: the word alone in more than `lo` documents, with its
 * forms in at most `hi`. Spread evenly over the band by frequency, its least and most frequent
 * included; words of letters first, numbers only to make up the count.
 */
export function pickTerms(terms: Term[], lo: number, hi: number, k: number): Term[] {
  const band = terms.filter((t) => t.docs > lo && t.upTo <= hi);
  const spread = (list: Term[], n: number) => {
    const sorted = [...list].sort((a, b) => a.docs - b.docs || a.word.localeCompare(b.word));
    if (sorted.length <= n) return sorted;
    if (n === 1) return [sorted[sorted.length - 1]];
    return Array.from(
      { length: n },
      (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (n - 1))],
    );
  };
  const lettered = band.filter((t) => /^\p{L}{3,}$/u.test(t.word));
  const picked = spread(lettered, k);
  if (picked.length < k) {
    const rest = band.filter((t) => !picked.includes(t));
    picked.push(...spread(rest, k - picked.length));
  }
  return picked.sort((a, b) => a.docs - b.docs);
}

/** "word (0.84%)" for each term (and with its other forms when they add), in lines. */
export function describeTerms(terms: Term[], total: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const t of terms) {
    const pct = (n: number) => `${((100 * n) / total).toFixed(2)}%`;
    const part = `${t.word} (${pct(t.docs)}${t.upTo > t.docs ? `, ${pct(t.upTo)} with its forms` : ''})`;
    if (line && line.length + part.length > 92) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line}, ${part}` : part;
  }
  if (line) lines.push(line);
  return lines;
}
