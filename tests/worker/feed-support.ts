import { generateCorpus } from '../../server/demo/corpus';
import { insertDocuments } from '../../server/content/store';
import type { IncomingDocument } from '../../server/documents/incoming';
import { openDatabase } from '../../server/db/database';
import type { Db } from '../../server/db/schema';
import type { TestServer } from './support';

/**
 * Documents written on the test server the way ingestion writes them (insertDocuments: the
 * fan-out to followers' feeds and the 'feed' changes included), through a second connection
 * to its SQLite database. Write while the server is quiet: better-sqlite3 waits for a lock
 * synchronously, and a write racing one of the server's transactions would stall both.
 */
export type ServerDocs = {
  db: Db;
  /** The public source with this catalogue key. */
  source(key: string): Promise<{ id: string; category_tab: string; market: string | null }>;
  /** `count` generated documents spread over the sources `keys` (a seed makes them distinct). */
  generate(keys: string[], count: number, seed: number, now?: number): Promise<number>;
  insert(key: string, items: IncomingDocument[], now?: number): Promise<number>;
  close(): Promise<void>;
};

export async function serverDocs(env: TestServer): Promise<ServerDocs> {
  const { db } = await openDatabase({ dataDir: env.dataDir });
  const source = async (key: string) =>
    db
      .selectFrom('sources')
      .select(['id', 'category_tab', 'market'])
      .where('key', '=', key)
      .where('owner_user_id', 'is', null)
      .executeTakeFirstOrThrow();
  const insert = async (key: string, items: IncomingDocument[], now = Date.now()) => {
    const { id } = await source(key);
    const result = await db
      .transaction()
      .execute((trx) => insertDocuments(trx, id, items, { now }));
    return result.inserted;
  };
  return {
    db,
    source,
    insert,
    async generate(keys, count, seed, now = Date.now()) {
      const sources = await Promise.all(keys.map(source));
      const corpus = generateCorpus({
        seed,
        count,
        now,
        sources: sources.map((s) => ({
          id: s.id,
          category_tab: s.category_tab as never,
          market: s.market as never,
        })),
      });
      let inserted = 0;
      for (const s of sources) {
        const items = corpus.get(s.id) ?? [];
        inserted += (
          await db.transaction().execute((trx) => insertDocuments(trx, s.id, items, { now }))
        ).inserted;
      }
      return inserted;
    },
    close: () => db.destroy(),
  };
}

/** One made-up news item, for a test that needs to know what arrived. */
export const newsItem = (key: string, title: string, unix: number): IncomingDocument => ({
  dedupe_key: key,
  title,
  url: `https://news.example.com/${key}`,
  unix,
  html: `<p>${title}.</p>`,
  text: `${title}.`,
});
