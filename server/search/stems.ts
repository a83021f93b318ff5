import { forEachWord, stem } from '../../contract/words';
import type { Db } from '../db/schema';
import { countsOf } from './vocabulary';

/**
 * What the index holds of a text: the STEMS of its words, in order (contract/words.ts), so a
 * query word matches every word of its stem ("employ" finds "employed") and a phrase matches
 * its stems in a row. SQLite's FTS5 is written the stems as its text (sqlite.ts), PostgreSQL's
 * tsvectors take them as lexemes (postgres.ts); queries are stems too (query.ts).
 *
 * The planner and the assistant's retrieval count documents per stem: the vocabulary table
 * holds, beside its surface words (spelling's, vocabulary.ts), one counter per stem keyed
 * `~<stem>` (`stemKey`), over the same documents (the public corpus). No surface word starts
 * with "~" (words are letters and digits) and similarTerms reads only the keys starting with a
 * word's first letter or digit, so spelling never sees these keys.
 */

/** The vocabulary key counting the documents holding a stem. */
export const stemKey = (s: string) => `~${s}`;

/** Longer stems are not counted (as vocabulary.ts's words). */
const MAX_STEM = 64;

type Stemmed = { stems: string[]; starts: number[] };

/** A document's body stemmed once per batch, for its full text, passages and counts. */
const stemmed = new WeakMap<
  object,
  { of: { title: string; plain_text: string }; title: string[]; body: Stemmed }
>();

const stemmedOf = (text: string): Stemmed => {
  const stems: string[] = [];
  const starts: number[] = [];
  forEachWord(text, (word, start) => {
    stems.push(stem(word));
    starts.push(start);
  });
  return { stems, starts };
};

/** The stems of a document's title and body (remembered for the same document object). */
export function stemsOfDocument(doc: { title: string; plain_text: string }): {
  title: string[];
  body: Stemmed;
} {
  let known = stemmed.get(doc);
  // The same object with other text (changed in place) is stemmed again.
  if (!known || known.of.title !== doc.title || known.of.plain_text !== doc.plain_text) {
    known = {
      of: { title: doc.title, plain_text: doc.plain_text },
      title: stemmedOf(doc.title).stems,
      body: stemmedOf(doc.plain_text),
    };
    stemmed.set(doc, known);
  }
  return known;
}

/** The indexed text of a list of stems: one token each, in order. */
export const stemText = (stems: readonly string[]) => stems.join(' ');

/** The stems of the words of the body starting within [start, end) (a passage's span). */
export function stemsWithin(body: Stemmed, start: number, end: number): string[] {
  let lo = 0;
  let hi = body.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (body.starts[mid] < start) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < body.starts.length && body.starts[i] < end; i++) out.push(body.stems[i]);
  return out;
}

/**
 * Adds a document's stems to vocabulary deltas, `delta` each (1 indexing it, -1 forgetting
 * it): called by indexing.ts writeShared and forgetWords for the documents they count words of.
 */
export function addStemCounts(
  counts: Map<string, number>,
  doc: { title: string; plain_text: string },
  delta: number,
): void {
  const { title, body } = stemsOfDocument(doc);
  for (const s of new Set([...title, ...body.stems])) {
    if (s.length > MAX_STEM) continue;
    const key = stemKey(s);
    counts.set(key, (counts.get(key) ?? 0) + delta);
  }
}

/**
 * The engine interface's termDocs: documents (of the public corpus) holding each word's STEM,
 * keyed by the words as given ("employed" answers the documents holding any word of "emploi").
 */
export async function stemDocs(db: Db, words: string[]): Promise<Map<string, number>> {
  const keys = words.map((w) => stemKey(stem(w)));
  const counts = await countsOf(db, keys);
  return new Map(words.map((w, i) => [w, counts.get(keys[i]) ?? 0]));
}
