/**
 * The notifications domain's table, merged into the Database interface of db/schema.ts: a
 * domain's tables are declared beside its migrations, not in a central file.
 */
declare module '../db/schema' {
  interface Database {
    notifications: {
      id: string;
      user_id: string;
      title: string;
      body: string;
      link: string | null;
      read: number;
      created_at: string;
    };
  }
}

export {};
