/**
 * The tags domain's tables, merged into the Database interface of db/schema.ts.
 * user_tags: one row per tag of a user (name unique per user case-insensitively, by name_key).
 * document_tags: one row per (user, tag, document) link.
 */
declare module '../db/schema' {
  interface Database {
    user_tags: {
      user_id: string;
      id: string;
      name: string;
      name_key: string;
      created_at: string;
    };
    document_tags: {
      user_id: string;
      tag_id: string;
      document_id: string;
      created_at: string;
    };
  }
}

export {};
