import { sql } from 'kysely';
import type { Database, Db } from '../db/schema';
import { recordChange } from '../sync';

/**
 * Feed entries: a feed's documents, written when they change (fan-out on write) so a feed of
 * any size pages from an index. The home feed of a user is `home:<user_id>`; a board's is its
 * id. Whoever writes entries tells each affected user once per feed (`FeedTouches`), never
 * once per document.
 */

export type EntryRow = Database['feed_entries'];

export const homeFeedId = (userId: string) => `home:${userId}`;

/** The feed a change names: `home` for a home feed id, else the board id. */
const boardIdOf = (feedId: string) => (feedId.startsWith('home:') ? 'home' : feedId);

/** contract feedTabOf in SQL, for entries written by INSERT ... SELECT. */
export const TAB_SQL = sql<string>`case when d.category_tab = 'exchanges' then coalesce(d.market, 'us_capital_markets') else d.category_tab end`;

/** Rows per INSERT: well under SQLite's bound on parameters (8 columns each). */
const CHUNK = 500;

/** Writes entries; an entry that exists (removed earlier) comes back under its new number. */
export const upsertEntries = async (db: Db, rows: EntryRow[]): Promise<void> => {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('feed_entries')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['feed_id', 'document_id']).doUpdateSet((eb) => ({
          removed: eb.ref('excluded.removed'),
          entry_seq: eb.ref('excluded.entry_seq'),
        })),
      )
      .execute();
  }
};

/** Which feeds of which users got entries, and the newest number in each. */
export class FeedTouches {
  private readonly byUser = new Map<string, Map<string, number>>();

  add(userId: string, feedId: string, seq: number): void {
    let feeds = this.byUser.get(userId);
    if (!feeds) this.byUser.set(userId, (feeds = new Map()));
    feeds.set(feedId, Math.max(seq, feeds.get(feedId) ?? 0));
  }

  get size(): number {
    return this.byUser.size;
  }

  /**
   * Appends one 'feed' change per user per feed, so workers pull the new entries (`after_seq`).
   * Users in a fixed order: concurrent writers on PostgreSQL lock user rows the same way round.
   */
  async notify(db: Db, now: number): Promise<void> {
    for (const userId of [...this.byUser.keys()].sort()) {
      for (const [feedId, seq] of this.byUser.get(userId)!) {
        const board_id = boardIdOf(feedId);
        await recordChange(
          db,
          userId,
          { entity: 'feed', entity_id: board_id, op: 'upsert', data: { board_id, seq } },
          now,
        );
      }
    }
  }
}

/** The newest entry number of a feed (0 when empty). */
export const feedSeq = async (db: Db, feedId: string): Promise<number> => {
  const row = await db
    .selectFrom('feed_entries')
    .select((eb) => eb.fn.max('entry_seq').as('seq'))
    .where('feed_id', '=', feedId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
};

/**
 * Adds a source's documents that `userId` may see to a feed, each under a new number from
 * `base` on (the caller reserved countSourceDocs of them). Entries removed earlier come back.
 */
export const addSourceEntries = async (
  db: Db,
  feedId: string,
  userId: string,
  sourceId: string,
  base: number,
): Promise<void> => {
  await sql`
    insert into feed_entries (feed_id, document_id, unix, tab, company, category, entry_seq, removed)
    select ${feedId}, d.id, d.unix, ${TAB_SQL}, d.company_name, d.category,
      ${base - 1} + row_number() over (order by d.seq), 0
    from documents d
    where d.source_id = ${sourceId} and (d.owner_user_id is null or d.owner_user_id = ${userId})
    on conflict (feed_id, document_id) do update
      set removed = 0, entry_seq = excluded.entry_seq`.execute(db);
};

/** How many of a source's documents `userId` may see. */
export const countSourceDocs = async (db: Db, userId: string, sourceId: string) =>
  Number(
    (
      await db
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('source_id', '=', sourceId)
        .where((eb) => eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)]))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How many live entries of a feed come from a source. */
export const countSourceEntries = async (db: Db, feedId: string, sourceId: string) =>
  Number(
    (
      await db
        .selectFrom('feed_entries as e')
        .innerJoin('documents as d', 'd.id', 'e.document_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('e.feed_id', '=', feedId)
        .where('e.removed', '=', 0)
        .where('d.source_id', '=', sourceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * Marks a feed's entries from a source removed, each under a new number from `base` on (the
 * caller reserved countSourceEntries of them): a mirror following `after_seq` hears of it.
 */
export const removeSourceEntries = async (
  db: Db,
  feedId: string,
  sourceId: string,
  base: number,
): Promise<void> => {
  await sql`
    insert into feed_entries (feed_id, document_id, unix, tab, company, category, entry_seq, removed)
    select e.feed_id, e.document_id, e.unix, e.tab, e.company, e.category,
      ${base - 1} + row_number() over (order by e.entry_seq), 1
    from feed_entries e
    inner join documents d on d.id = e.document_id
    where e.feed_id = ${feedId} and e.removed = 0 and d.source_id = ${sourceId}
    on conflict (feed_id, document_id) do update
      set removed = 1, entry_seq = excluded.entry_seq`.execute(db);
};
