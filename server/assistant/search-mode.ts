import { OPEN_FILTER, engineFor, isEmptyScope, type SearchExpr } from '../search';
import type { Db } from '../db/schema';
import type { AskTarget } from './ask-scope';
import { loadDocuments, type AskDocument } from './retrieve';
import { allOf, anyOf, contentWords, holds, questionTerms, wordSet } from './words';

/**
 * Search mode's matches: the documents of the scope holding every content word of the
 * question, best first; when none holds them all, those holding any of them (a question is
 * not a keyword query: "what did Nike say about tariffs" must not need "say"). A document
 * scope checks its own documents.
 */

export const SEARCH_RESULTS = 20;

export type SearchMatches = {
  words: string[];
  expr: SearchExpr | null;
  documents: AskDocument[];
  total: number;
  exact: boolean;
  /** The results hold some of the words, not all. */
  anyWord: boolean;
};

export async function searchMatches(
  db: Db,
  target: AskTarget,
  question: string,
): Promise<SearchMatches> {
  const words = contentWords(question);
  const none = { words, expr: null, documents: [], total: 0, exact: true, anyWord: false };
  if (words.length === 0 || isEmptyScope(target.scope)) return none;
  if (target.documentIds) {
    // At most MAX_ASK_DOCUMENTS documents, each already checked visible: read them.
    const terms = questionTerms(question);
    const docs = [...(await loadDocuments(db, target.scope.viewerId, target.documentIds)).values()];
    // How many of the words each document holds (its title too), counted once per document.
    const held = new Map(
      docs.map((d) => {
        const inDoc = wordSet(`${d.title}\n${d.plain_text}`);
        return [d.id, terms.filter((t) => holds(inDoc, t)).length] as const;
      }),
    );
    const count = (d: AskDocument) => held.get(d.id) ?? 0;
    const all = docs.filter((d) => count(d) === terms.length);
    const anyWord = all.length === 0;
    const hits = (anyWord ? docs.filter((d) => count(d) > 0) : all).sort(
      (a, b) => count(b) - count(a),
    );
    return {
      words,
      expr: anyWord ? anyOf(words) : allOf(words),
      documents: hits.slice(0, SEARCH_RESULTS),
      total: hits.length,
      exact: true,
      anyWord,
    };
  }
  const engine = engineFor(db);
  const tries = words.length > 1 ? [allOf(words), anyOf(words)] : [anyOf(words)];
  for (const [i, expr] of tries.entries()) {
    const answer = await engine.search(db, {
      ...OPEN_FILTER,
      expr,
      scope: target.scope,
      sort: 'relevance',
      offset: 0,
      limit: SEARCH_RESULTS,
      tabCounts: false,
    });
    if (answer.total === 0 && i < tries.length - 1) continue;
    const loaded = await loadDocuments(
      db,
      target.scope.viewerId,
      answer.hits.map((h) => h.id),
    );
    return {
      words,
      expr,
      documents: [...loaded.values()],
      total: answer.total,
      exact: answer.exact,
      anyWord: i > 0,
    };
  }
  return none;
}
