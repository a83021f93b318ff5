/**
 * The search engine's tables (migration 0011, search/migrations.ts), merged into db/schema.ts's
 * Database interface. SQLite's FTS5 tables are written with raw SQL (sqlite.ts) and are not
 * declared here.
 */
declare module '../db/schema' {
  interface Database {
    /**
     * One row per indexed document, keyed by its seq (the FTS5 rowid): what scoping, filtering
     * and sorting read for a candidate without opening the wide documents row. Written once at
     * indexing (a document and its source never change); deleted with the document.
     */
    search_meta: {
      seq: number;
      document_id: string;
      unix: number;
      source_id: string;
      owner_user_id: string | null;
      /** The source's owner (private sources): the viewer guard reads both owners. */
      source_owner: string | null;
      /** 1 when the source is public and has no owner: the {product}_web corpus. */
      public: number;
      /** contract feedTabOf. */
      tab: string;
      market: string | null;
      /** Characters of plain text: the size sorts. */
      size: number;
      company: string | null;
      category: string | null;
      /** The document's filer (entities.ts entityKey), null for a document of no one. */
      entity?: string | null;
      /** PostgreSQL only: the document's tsvector (postgres.ts), written from its text form. */
      tsv?: string;
    };
    /** A document's categories (the tag facet and filter until user tags exist). */
    search_tags: { seq: number; tag: string };
    /** A document's passages: [span_start, span_end) of its plain text. id = seq * 1024 + ordinal. */
    document_passages: {
      id: number;
      document_id: string;
      ordinal: number;
      span_start: number;
      span_end: number;
      /**
       * indexing.ts passageTextHash of its text: copies of one text share it (migration 0030;
       * null only for a row written before it and not yet filled).
       */
      text_hash?: string | null;
      /** PostgreSQL only: the passage's tsvector. */
      tsv?: string;
    };
    /**
     * Documents per word (the planner's estimates, spelling), plus counters under keys no word
     * can have: '' (every document), ':src:<source id>', ':own:<user id>', ':pub'.
     */
    search_terms: { term: string; docs: number };
    /**
     * Documents per surface word of the documents not everyone may see (migration 0013,
     * vocabulary.ts scopedKeyOf): `scope_key` `src:<source id>` (a private source) or
     * `own:<user id>` (a user's own documents of no private source). PK (scope_key, term).
     */
    search_scoped_terms: { scope_key: string; term: string; docs: number };
    /** Filers by key (entities.ts): the name first seen. Migration 0014. */
    search_entities: { key: string; name: string };
    /** The names a question may call a filer by; `caps` 1: only when written in capitals. */
    search_entity_aliases: { alias: string; key: string; caps: number };
  }
}

export {};
