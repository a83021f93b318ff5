import type { CategoryTab, FeedTabKey, Market } from '../../contract/documents';
import type { SearchSort } from '../../contract/search';
import type { Db } from '../db/schema';
import type { KeywordExpr } from '../../contract/keyword-query';

/**
 * The search engine's one interface (issue 7): SQLite FTS5 (sqlite.ts, the default) and
 * PostgreSQL full-text (postgres.ts) implement it; `engineFor(db)` picks by dialect. Documents
 * are indexed inside the transaction that inserts them (content/store.ts), as whole documents
 * and as passages with character offsets into their plain text. Queries reach an engine only as
 * a parsed expression (the custom feeds' keyword language, contract/keyword-query.ts), which
 * each engine renders in its own syntax with every word quoted: user text is never engine
 * syntax.
 */

/** The parsed query; null matches every document of the scope. */
export type SearchExpr = KeywordExpr;

/**
 * What a search may read, decided in one place (scope.ts) and nowhere else. A document is in
 * scope when it is in ANY part, and it is never one the viewer may not see (owned by someone
 * else, or from someone else's private source), whatever the parts say. Groups (a later issue)
 * add their feeds or sources here.
 */
export type SearchScope = {
  viewerId: string;
  /** Documents with a live entry (removed = 0) in these feeds: `home:<user>`, a board id. */
  feeds: string[];
  /** Every document of these sources (ids). */
  sourceIds: string[];
  /** Every document of a public source (sources.public = 1, no owner): {product}_web. */
  publicCorpus: boolean;
  /** Documents this user owns (uploads); null: none. */
  ownedBy: string | null;
};

/** A scope with no part reads nothing (a user's groups, until groups exist). */
export const isEmptyScope = (scope: SearchScope) =>
  !scope.feeds.length && !scope.sourceIds.length && !scope.publicCorpus && !scope.ownedBy;

export type EngineFilter = {
  /** Only this feed tab (contract feedTabOf of the document). */
  tab: FeedTabKey | null;
  /** Published between, unix seconds, both inclusive; null: open. */
  from: number | null;
  to: number | null;
  /** Any of these company names (exact, case-insensitive). */
  companies: string[] | null;
  /** Any of these document categories (documents.categories / category). */
  tags: string[] | null;
  /** Only filings of this market. */
  market: Market | null;
};

/** No narrowing: every document of the scope. */
export const OPEN_FILTER: EngineFilter = {
  tab: null,
  from: null,
  to: null,
  companies: null,
  tags: null,
  market: null,
};

export type EngineQuery = EngineFilter & {
  expr: SearchExpr | null;
  scope: SearchScope;
  sort: SearchSort;
  offset: number;
  limit: number;
  /** Also count matches per feed tab (ignoring `tab`), for category_tabs. */
  tabCounts: boolean;
};

export type EngineHit = { id: string; score: number | null };

export type EngineAnswer = {
  /** Document ids in order, at most `limit`, from `offset`. */
  hits: EngineHit[];
  /** Matches in scope (within `tab` when given). */
  total: number;
  /** false when `total` (and the tab counts) are estimates: see the engine's note. */
  exact: boolean;
  /** Matches per feed tab, tabs with none omitted; null unless asked. */
  tabs: Partial<Record<FeedTabKey, number>> | null;
};

/** A passage of a document: [start, end) in its plain text. */
export type PassageHit = {
  document_id: string;
  start: number;
  end: number;
  score: number;
  /** Its text's hash (indexing.ts passageTextHash): copies of one text share it. */
  text_hash: string | null;
  /** Of a document the viewer owns (or of their own source). */
  own: boolean;
};

export type PassageQuery = {
  expr: SearchExpr;
  scope: SearchScope;
  /** Only passages of these documents (the assistant's document scope); null: any in scope. */
  documentIds: string[] | null;
  limit: number;
};

/** What the index holds of one document (a row of `documents` as inserted). */
export type IndexedDocument = {
  id: string;
  seq: number;
  title: string;
  plain_text: string;
  source_id: string;
  unix: number;
  owner_user_id: string | null;
  category_tab: CategoryTab;
  market: Market | null;
  company_name: string | null;
  /** A ticker, for filings that give one (an alias of the filer: entities.ts). */
  security_id?: string | null;
  category: string | null;
  /** JSON array of strings, as stored. */
  categories: string;
};

export interface SearchEngine {
  readonly name: 'sqlite-fts5' | 'postgres';
  /** Indexes documents and their passages; runs inside the caller's transaction. */
  index(db: Db, docs: IndexedDocument[]): Promise<void>;
  /** Takes documents out of the index (before or as they are deleted). */
  unindex(db: Db, docs: Array<Pick<IndexedDocument, 'id' | 'seq'>>): Promise<void>;
  search(db: Db, query: EngineQuery): Promise<EngineAnswer>;
  /** The best passages for a question (the assistant's retrieval), one per distinct text. */
  passages(db: Db, query: PassageQuery): Promise<PassageHit[]>;
  /** Top values of a facet over the matches (at most `limit`, most documents first). */
  facet(
    db: Db,
    query: EngineFilter & { expr: SearchExpr | null; scope: SearchScope },
    facet: 'tags' | 'companies',
    limit: number,
  ): Promise<Array<{ key: string; count: number }>>;
  /**
   * How many documents of the public corpus hold each word's STEM (contract/words.ts), keyed
   * by the words as given: what a query word matches ("employ": every word of "emploi").
   */
  termDocs(db: Db, words: string[]): Promise<Map<string, number>>;
  /**
   * Words of the index's vocabulary that could be a misspelling of `word`: same first letter,
   * length within 2, most documents first (spell.ts picks by edit distance).
   */
  similarTerms(db: Db, word: string, limit: number): Promise<Array<{ term: string; docs: number }>>;
}
