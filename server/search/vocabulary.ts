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

/**
 * Scoped vocabularies (migration 0013, `search_scoped_terms`): documents per surface word of
 * the documents not everyone may see, one vocabulary per private source (`src:<source id>`)
 * and per owner of owned documents of no private source (`own:<user id>`). Spelling reads the
 * public vocabulary plus those of the user's own scope (spell.ts), never anyone else's. Each
 * document is counted in exactly one vocabulary (`scopedKeyOf`), when indexed, and taken out
 * when unindexed, as the public one is; a cascade leaves its words counted there too (the
 * vocabulary of a deleted source or user is never read again: no one's scope names it).
 */
export const scopedKeyOfSource = (sourceId: string) => `src:${sourceId}`;
export const scopedKeyOfOwner = (userId: string) => `own:${userId}`;

/**
 * The scoped vocabulary of a document (its search_meta row), or null: a document of the public
 * corpus (the public vocabulary holds it), or one nobody may see (owned by someone other than
 * its private source's owner).
 */
export function scopedKeyOf(m: {
  public: number;
  source_id: string;
  owner_user_id: string | null;
  source_owner: string | null;
}): string | null {
  if (m.owner_user_id) {
    if (!m.source_owner) return scopedKeyOfOwner(m.owner_user_id);
    return m.source_owner === m.owner_user_id ? scopedKeyOfSource(m.source_id) : null;
  }
  return Number(m.public) === 1 ? null : scopedKeyOfSource(m.source_id);
}

/** Per scope key, documents to add to each word (negative to take them out). */
export type ScopedDeltas = Map<string, Map<string, number>>;

/** Adds `delta` to a word of a scope key's vocabulary. */
export const addScoped = (deltas: ScopedDeltas, key: string, term: string, delta: number) => {
  let terms = deltas.get(key);
  if (!terms) deltas.set(key, (terms = new Map()));
  terms.set(term, (terms.get(term) ?? 0) + delta);
};

const byKeyThenTerm = (
  a: { scope_key: string; term: string },
  b: { scope_key: string; term: string },
) =>
  a.scope_key < b.scope_key
    ? -1
    : a.scope_key > b.scope_key
      ? 1
      : a.term < b.term
        ? -1
        : a.term > b.term
          ? 1
          : 0;

/** bumpTerms for the scoped vocabularies. */
export async function bumpScopedTerms(db: Db, deltas: ScopedDeltas): Promise<void> {
  // One order for every writer, as bumpTerms.
  const rows = [...deltas]
    .flatMap(([scope_key, terms]) =>
      [...terms]
        .filter(([, docs]) => docs !== 0)
        .map(([term, docs]) => ({ scope_key, term, docs })),
    )
    .sort(byKeyThenTerm);
  for (let i = 0; i < rows.length; i += TERMS_PER_UPSERT) {
    await db
      .insertInto('search_scoped_terms')
      .values(rows.slice(i, i + TERMS_PER_UPSERT))
      .onConflict((oc) =>
        oc
          .columns(['scope_key', 'term'])
          .doUpdateSet({ docs: sql<number>`search_scoped_terms.docs + excluded.docs` }),
      )
      .execute();
  }
  const emptied = new Map<string, string[]>();
  for (const r of rows) {
    if (r.docs < 0) emptied.set(r.scope_key, [...(emptied.get(r.scope_key) ?? []), r.term]);
  }
  for (const [key, terms] of emptied) {
    for (let i = 0; i < terms.length; i += TERMS_PER_UPSERT) {
      await db
        .deleteFrom('search_scoped_terms')
        .where('scope_key', '=', key)
        .where('term', 'in', terms.slice(i, i + TERMS_PER_UPSERT))
        .where('docs', '<=', 0)
        .execute();
    }
  }
}

/** Documents per word summed over these scoped vocabularies, keyed by the words as given. */
export async function scopedTermDocs(
  db: Db,
  keys: readonly string[],
  words: readonly string[],
): Promise<Map<string, number>> {
  const folded = words.map((w) => fold(w.toLowerCase()));
  const unique = [...new Set(folded)];
  const counts = new Map<string, number>();
  if (keys.length > 0) {
    for (let i = 0; i < unique.length; i += TERMS_PER_UPSERT) {
      const rows = await db
        .selectFrom('search_scoped_terms')
        .select(['term', sql<number>`sum(docs)`.as('n')])
        .where('scope_key', 'in', [...keys])
        .where('term', 'in', unique.slice(i, i + TERMS_PER_UPSERT))
        .groupBy('term')
        .execute();
      for (const r of rows) counts.set(r.term, Math.max(0, Number(r.n)));
    }
  }
  return new Map(words.map((w, i) => [w, counts.get(folded[i]) ?? 0]));
}

/**
 * similarTerms over these scoped vocabularies, documents summed across them: per key, the
 * primary key's range of words starting with the word's first letter, lengths within 2.
 */
export async function scopedSimilarTerms(
  db: Db,
  keys: readonly string[],
  word: string,
  limit: number,
): Promise<Array<{ term: string; docs: number }>> {
  const w = fold(word.toLowerCase());
  const first = String.fromCodePoint(w.codePointAt(0) ?? 0);
  if (keys.length === 0 || !w || !/^[\p{L}\p{N}]$/u.test(first)) return [];
  const next = String.fromCodePoint(first.codePointAt(0)! + 1);
  const length = [...w].length;
  const rows = await db
    .selectFrom('search_scoped_terms')
    .select(['term', sql<number>`sum(docs)`.as('n')])
    .where('scope_key', 'in', [...keys])
    .where(sql<number>`length(term)`, '>=', length - 2)
    .where(sql<number>`length(term)`, '<=', length + 2)
    .where('term', '>=', first)
    .where('term', '<', next)
    .where('docs', '>', 0)
    .groupBy('term')
    .orderBy(sql`sum(docs)`, 'desc')
    .orderBy('term')
    .limit(Math.max(0, Math.min(limit, 1000)))
    .execute();
  return rows.map((r) => ({ term: r.term, docs: Number(r.n) }));
}
