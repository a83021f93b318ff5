import type { CategoryTab, Market } from '../../contract/documents';
import type { SourceKind } from '../../contract/sources';

/**
 * The sources domain's tables, merged into db/schema.ts's Database interface (as
 * notifications/tables.ts does). Migration 0007 (sources/migrations.ts).
 */
declare module '../db/schema' {
  interface Database {
    /**
     * A source: a catalogue preset or built-in (public = 1, anyone may follow), or a feed or
     * website one user followed by its address (owner_user_id set: private to that user; another
     * user following the same address gets a row of their own).
     */
    sources: {
      id: string;
      /** Catalogue key (`sec`), or `rss_<id>` / `web_<id>` for a followed address. Unique. */
      key: string;
      kind: SourceKind;
      label: string;
      /** The feed or page address read; null for built-in content. */
      url: string | null;
      site_url: string | null;
      category: 'rss_news' | 'exchanges_groups';
      category_tab: CategoryTab;
      market: Market | null;
      /** The catalogue group title ("Indian Capital Markets"), or null. */
      grp: string | null;
      thumbnail: string | null;
      /** The feature flag the source sits under (rss_news, exchanges). */
      flag: string;
      public: number;
      owner_user_id: string | null;
      created_at: string;
    };
    /** Who follows what; priority (website_priority) lives here. PK (user_id, source_id). */
    source_follows: {
      user_id: string;
      source_id: string;
      priority: number;
      created_at: string;
    };
  }
}

export {};
