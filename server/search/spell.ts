import { sql } from 'kysely';
import { sameWord } from '../../contract/words';
import type { Db } from '../db/schema';
import type { SearchEngine, SearchScope } from './engine';
import { foldWord } from './highlight';
import {
  countsOf,
  scopedKeyOfOwner,
  scopedKeyOfSource,
  scopedSimilarTerms,
  scopedTermDocs,
} from './vocabulary';

/**
 * Spelling correction from the index's own vocabulary (002 §2 spell_correct): a query word
 * that no document holds, or very few, is replaced by the commonest word of the index within
 * edit distance 1 (2 for words of 8 letters or more) that is at least 10 times as common and
 * that a document the user may see holds. The query keeps its operators, quotes and spacing;
 * only the corrected words change.
 *
 * The vocabulary read is the public corpus's plus, with a scope, the scoped vocabularies of
 * what the user may see in it (`scopedVocabularies`: their private sources in the scope, their
 * own documents), a word's documents summed across them; never another user's.
 */

/** A word held by at most this many documents may be a misspelling. */
export const RARE_DOCS = 2;
/** A replacement must be this many times as common as the word it replaces. */
export const MORE_COMMON = 10;
/** Words shorter than this, or with digits, are left as they are (codes, tickers, years). */
const MIN_LETTERS = 3;
/** Only the first words of a long query are checked: each costs a vocabulary lookup. */
const MAX_WORDS = 20;
const CANDIDATES = 50;
/** The keyword language's operators (contract/keyword-query.ts reads them in capitals). */
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * Damerau-Levenshtein distance (optimal string alignment: an adjacent swap costs 1), by code
 * point; gives up and answers `max + 1` once the distance must exceed `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d = Math.min(d, prev2[j - 2] + 1);
      }
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[t.length];
}

/** How far a word of this length may be from its correction. */
export const allowedDistance = (word: string) => ([...word].length >= 8 ? 2 : 1);

/** The replacement keeps the typed word's capitals: "Inflaton" -> "Inflation", "FEDD" -> "FED". */
const likeCase = (typed: string, word: string) => {
  if (typed.length > 1 && typed === typed.toUpperCase()) return word.toUpperCase();
  if (typed[0] !== typed[0].toLowerCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
};

type WordAt = { typed: string; word: string; start: number; end: number };

/** The words of a query that spelling may correct, with where they stand in it. */
const correctableWords = (q: string): WordAt[] =>
  Array.from(q.matchAll(/[\p{L}\p{N}]+/gu), (m) => ({
    typed: m[0],
    word: foldWord(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  })).filter(
    (w) => !OPERATORS.has(w.typed) && !/\p{N}/u.test(w.word) && [...w.word].length >= MIN_LETTERS,
  );

/** Candidates tried per word, commonest first, until one is visible to the user. */
const VISIBLE_TRIES = 3;

export type SpellOptions = {
  /**
   * The search's scope: its private sources' and the user's own documents' words are read
   * too (`scopedVocabularies`). Without it, the public vocabulary alone.
   */
  scope?: SearchScope;
  /**
   * Whether the user may see a document holding this word. The vocabulary is the whole
   * index's, other users' private documents included: a correction to a word only those hold
   * would tell the user it exists, so such a word is never offered.
   */
  visible: (word: string) => Promise<boolean>;
};

/** The query with its misspelt words corrected, or null when none is. */
export async function correctSpelling(
  db: Db,
  engine: Pick<SearchEngine, 'termDocs' | 'similarTerms'>,
  q: string,
  opts: SpellOptions,
): Promise<string | null> {
  const words = correctableWords(q);
  const distinct = [...new Set(words.map((w) => w.word))].slice(0, MAX_WORDS);
  if (distinct.length === 0) return null;
  const keys = opts.scope ? await scopedVocabularies(db, opts.scope) : [];
  const docs = await docsOf(db, engine, keys, distinct);
  const fixes = new Map<string, string>();
  for (const word of distinct) {
    let own = docs.get(word) ?? 0;
    if (own > RARE_DOCS) continue;
    const max = allowedDistance(word);
    const similar = await similarOf(db, engine, keys, word);
    // The engine counts a word's stem, the scoped vocabularies surface words: the user's
    // documents holding another form of the word ("minerals" for "mineral") hold it too.
    for (const c of similar) if (c.term !== word && sameWord(c.term, word)) own += c.scoped;
    if (own > RARE_DOCS) continue;
    const candidates = similar
      .filter(
        (c) =>
          c.term !== word &&
          // A form of the word is no fix: the word already matches it.
          !sameWord(c.term, word) &&
          c.docs >= Math.max(1, own * MORE_COMMON) &&
          editDistance(word, c.term, max) <= max,
      )
      .sort((a, b) => b.docs - a.docs || (a.term < b.term ? -1 : 1))
      .slice(0, VISIBLE_TRIES);
    for (const c of candidates) {
      if (await opts.visible(c.term)) {
        fixes.set(word, c.term);
        break;
      }
    }
  }
  if (fixes.size === 0) return null;
  let out = '';
  let at = 0;
  for (const w of words) {
    const fix = fixes.get(w.word);
    if (!fix) continue;
    out += q.slice(at, w.start) + likeCase(w.typed, fix);
    at = w.end;
  }
  return out + q.slice(at);
}

/**
 * At most this many scoped vocabularies are read per query: the user's own documents' and
 * their private sources in the scope, the most recently followed (else created) first. A user
 * following more is corrected from these 64 (and the public corpus); each is read by index
 * ranges, so a correction's cost stays bounded however many sources the user follows.
 */
export const MAX_SCOPED_VOCABULARIES = 64;
/** A scope listing more sources than this is the user's followed ones (home, My Data). */
const LISTED_SOURCES = 500;

/**
 * The scoped vocabularies (vocabulary.ts) a search may correct from: the user's own documents'
 * (wherever they are, they are the user's: whether the scope holds the word is `visible`'s
 * question) and those of the scope's private sources, which are the user's own (a private
 * source is its owner's alone; a feed's documents come from the sources the user follows).
 * Never a source of someone else: the engine would never show its documents to this user.
 */
export async function scopedVocabularies(db: Db, scope: SearchScope): Promise<string[]> {
  const viewer = scope.viewerId;
  const feeds = scope.feeds.length > 0;
  const keys = [scopedKeyOfOwner(viewer)];
  const listed = scope.sourceIds.length <= LISTED_SOURCES;
  if (listed && scope.sourceIds.length === 0 && !feeds) return keys;
  const inScope = new Set(scope.sourceIds);
  const rows = await db
    .selectFrom('sources as s')
    .leftJoin('source_follows as f', (join) =>
      join.onRef('f.source_id', '=', 's.id').on('f.user_id', '=', viewer),
    )
    .select([
      's.id',
      'f.user_id as follower',
      sql<string>`coalesce(f.created_at, s.created_at)`.as('since'),
    ])
    .where('s.owner_user_id', '=', viewer)
    .where((eb) =>
      eb.or([
        ...(listed && scope.sourceIds.length > 0 ? [eb('s.id', 'in', scope.sourceIds)] : []),
        ...(!listed || feeds ? [eb('f.user_id', 'is not', null)] : []),
      ]),
    )
    .orderBy('since', 'desc')
    .orderBy('s.id')
    .limit(MAX_SCOPED_VOCABULARIES - keys.length)
    .execute();
  for (const r of rows) {
    if (inScope.has(r.id) || (feeds && r.follower !== null)) keys.push(scopedKeyOfSource(r.id));
  }
  return keys;
}

type Vocabulary = Pick<SearchEngine, 'termDocs' | 'similarTerms'>;

/** Documents per word, the public vocabulary's and the scoped ones' summed. */
async function docsOf(
  db: Db,
  engine: Vocabulary,
  keys: readonly string[],
  words: string[],
): Promise<Map<string, number>> {
  const pub = await engine.termDocs(db, words);
  if (keys.length === 0) return pub;
  const scoped = await scopedTermDocs(db, keys, words);
  return new Map(words.map((w) => [w, (pub.get(w) ?? 0) + (scoped.get(w) ?? 0)]));
}

/**
 * similarTerms over the public and the scoped vocabularies: each one's commonest candidates,
 * every one then counted in both (a word may be common in one and rare in the other): `docs`
 * in all, `scoped` in the scoped vocabularies.
 */
async function similarOf(
  db: Db,
  engine: Vocabulary,
  keys: readonly string[],
  word: string,
): Promise<Array<{ term: string; docs: number; scoped: number }>> {
  const pub = await engine.similarTerms(db, word, CANDIDATES);
  if (keys.length === 0) return pub.map((c) => ({ ...c, scoped: 0 }));
  const scoped = await scopedSimilarTerms(db, keys, word, CANDIDATES);
  const pubDocs = new Map(pub.map((c) => [c.term, c.docs]));
  const scopedDocs = new Map(scoped.map((c) => [c.term, c.docs]));
  const onlyScoped = scoped.filter((c) => !pubDocs.has(c.term)).map((c) => c.term);
  const onlyPublic = pub.filter((c) => !scopedDocs.has(c.term)).map((c) => c.term);
  for (const [term, n] of await countsOf(db, onlyScoped)) pubDocs.set(term, n);
  for (const [term, n] of await scopedTermDocs(db, keys, onlyPublic)) scopedDocs.set(term, n);
  return [...new Set([...pubDocs.keys(), ...scopedDocs.keys()])].map((term) => ({
    term,
    docs: (pubDocs.get(term) ?? 0) + (scopedDocs.get(term) ?? 0),
    scoped: scopedDocs.get(term) ?? 0,
  }));
}
