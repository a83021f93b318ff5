/**
 * The notebooks domain's tables, merged into the Database interface of db/schema.ts.
 * notebooks: one row per notebook of a user (name unique per user case-insensitively, by
 * name_key; type 'default' for the one default notebook, else 'user').
 * notes: one row per note, in one of the user's notebooks; `document` is the snip document
 * (rich-text nodes) as JSON text, `plain_text` its text.
 */
declare module '../db/schema' {
  interface Database {
    notebooks: {
      user_id: string;
      id: string;
      name: string;
      name_key: string;
      type: 'default' | 'user';
      created_at: string;
      updated_at: string;
    };
    notes: {
      user_id: string;
      id: string;
      notebook_id: string;
      name: string;
      document: string;
      plain_text: string;
      created_at: string;
      updated_at: string;
    };
  }
}

export {};
