import type { CategoryTab, Market } from '../../contract/documents';

/**
 * The documents domain's tables, merged into db/schema.ts's Database interface. Migration 0008
 * (documents/migrations.ts).
 */
declare module '../db/schema' {
  interface Database {
    /**
     * One counter row (`name` = 'content'): the global sequence of documents and feed entries.
     * Bumped inside the writing transaction, which on PostgreSQL locks the row until
     * commit, so numbers become visible in commit order (see documents/sequence.ts).
     */
    content_counters: { name: string; value: number };
    documents: {
      /** Url-safe; the deeplink. */
      id: string;
      /** Global, strictly increasing in commit order. */
      seq: number;
      source_id: string;
      source_key: string;
      /** guid, else link, else a hash of title and text. UNIQUE with source_id. */
      dedupe_key: string;
      title: string;
      url: string | null;
      /** Published, unix seconds. */
      unix: number;
      /** Sanitised on the way in (documents/sanitize.ts). */
      html: string;
      plain_text: string;
      category_tab: CategoryTab;
      market: Market | null;
      company_name: string | null;
      security_code: string | null;
      security_id: string | null;
      category: string | null;
      secondary_category: string | null;
      /** JSON array of strings. */
      categories: string;
      thumbnail: string | null;
      mime_type: string;
      /** Null: visible to whoever may see the source; else only to this user. */
      owner_user_id: string | null;
      created_at: string;
    };
    /**
     * A feed's documents, written when documents arrive (fan-out on write). `feed_id` is
     * `home:<user_id>` or a board id. Removed entries stay (removed = 1, a new entry_seq) so a
     * mirror following `after_seq` hears of the removal.
     */
    feed_entries: {
      feed_id: string;
      document_id: string;
      unix: number;
      /** The feed tab key (contract feedTabOf). */
      tab: string;
      company: string | null;
      category: string | null;
      entry_seq: number;
      removed: number;
    };
    /** Present = read. `mark_seq` (the number of its change, per user) orders the cursor list. */
    read_marks: {
      user_id: string;
      document_id: string;
      mark_seq: number;
      updated_at: string;
    };
  }
}

export {};
