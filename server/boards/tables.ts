/**
 * The boards domain's table, merged into db/schema.ts's Database interface. Migration 0009
 * (boards/migrations.ts). A board's documents are feed_entries rows under its id.
 */
declare module '../db/schema' {
  interface Database {
    boards: {
      id: string;
      user_id: string;
      name: string;
      description: string;
      kind: 'custom' | 'ai';
      /** JSON of contract BoardDefinition. */
      definition: string;
      enabled: number;
      /** Bumped whenever the definition changes (its entries are rebuilt). */
      version: number;
      created_at: string;
      updated_at: string;
    };
  }
}

export {};
