import { sql } from 'kysely';
import type { Db } from '../db/schema';
import { fold } from './query';
import './tables';

/**
 * The index's vocabulary, the same table on both engines: how many documents of the public
 * corpus hold each word (folded as the index folds it; private documents stay out, so that a
 * spelling suggestion never reveals a word only someone's private documents hold), kept per
 * indexed batch, plus the planner's counters (over every document). Reading
 * it is one key lookup per word, where FTS5's own vocabulary (fts5vocab) walks a word's whole
 * document list and PostgreSQL's ts_stat the whole index. Documents deleted by a cascade (a
 * source deleted) leave their words counted (the trigger cannot see a contentless document's
 * words): the counts are for planning and spelling, where a word counted a little high costs
 * nothing; `unindex` takes words out exactly.
 */

const TERMS_PER_UPSERT = 400;

/** Adds `delta` documents to each term (negative to take them out). */
export async function bumpTerms(db: Db, deltas: Map<string, number>): Promise<void> {
  // One order for every writer: concurrent batches on PostgreSQL never wait on each other in
  // a cycle.
  const rows = [...deltas]
    .filter(([, docs]) => docs !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([term, docs]) => ({ term, docs }));
  for (let i = 0; i < rows.length; i += TERMS_PER_UPSERT) {
    await db
      .insertInto('search_terms')
      .values(rows.slice(i, i + TERMS_PER_UPSERT))
      .onConflict((oc) =>
        oc.column('term').doUpdateSet({ docs: sql<number>`search_terms.docs + excluded.docs` }),
      )
      .execute();
  }
  const emptied = rows.filter((r) => r.docs < 0).map((r) => r.term);
  for (let i = 0; i < emptied.length; i += TERMS_PER_UPSERT) {
    await db
      .deleteFrom('search_terms')
      .where('term', 'in', emptied.slice(i, i + TERMS_PER_UPSERT))
      .where('docs', '<=', 0)
      .execute();
  }
}

/** Documents per key (words folded as indexed, or counter keys); absent keys are 0. */
export async function countsOf(db: Db, keys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += TERMS_PER_UPSERT) {
    const rows = await db
      .selectFrom('search_terms')
      .select(['term', 'docs'])
      .where('term', 'in', unique.slice(i, i + TERMS_PER_UPSERT))
      .execute();
    for (const r of rows) out.set(r.term, Math.max(0, Number(r.docs)));
  }
  return out;
}

/** The engine interface's termDocs: keyed by the words as given. */
export async function termDocs(db: Db, words: string[]): Promise<Map<string, number>> {
  const folded = words.map((w) => fold(w.toLowerCase()));
  const counts = await countsOf(db, folded);
  return new Map(words.map((w, i) => [w, counts.get(folded[i]) ?? 0]));
}

/**
 * Words that could be a misspelling of `word`: the same first letter, a length within 2, most
 * documents first (the range of keys starting with that letter, read in the index's order).
 */
export async function similarTerms(
  db: Db,
  word: string,
  limit: number,
): Promise<Array<{ term: string; docs: number }>> {
  const w = fold(word.toLowerCase());
  const first = String.fromCodePoint(w.codePointAt(0) ?? 0);
  if (!w || !/^[\p{L}\p{N}]$/u.test(first)) return [];
  const next = String.fromCodePoint(first.codePointAt(0)! + 1);
  const length = [...w].length;
  const rows = await db
    .selectFrom('search_terms')
    .select(['term', 'docs'])
    .where('term', '>=', first)
    .where('term', '<', next)
    .where(sql<number>`length(term)`, '>=', length - 2)
    .where(sql<number>`length(term)`, '<=', length + 2)
    .where('docs', '>', 0)
    .orderBy('docs', 'desc')
    .orderBy('term')
    .limit(Math.max(0, Math.min(limit, 1000)))
    .execute();
  return rows.map((r) => ({ term: r.term, docs: Number(r.docs) }));
}
