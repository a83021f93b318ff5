import { sql } from 'kysely';
import type { BoardDocs, BoardDocsQuery, BoardEntry } from '../../contract/boards';
import type { Db } from '../db/schema';
import { CARD_COLUMNS, toCard, type CardRow } from '../documents';
import { feedSeq } from './feed-entries';
import { priorityRank } from './priority';
import { ApiError } from '../errors';

/**
 * GET /boards/{id}/v2: a feed's entries from feed_entries, through an index whatever the feed's
 * size. Newest first (or by `sort`), by offset (`start_from`) or by keyset (`before`, the `next`
 * of the previous page: "unix:id", stable while documents arrive); or, with `after_seq`, what
 * changed since, in entry order, removed entries included.
 */

/** `userId`: whose people the priority view ranks by (priority.ts). */
type Feed = { feedId: string; boardId: string; version: number; userId: string };

const badCursor = () =>
  new ApiError(400, 'bad_request', 'before: must be the next cursor of a previous page', [
    { path: 'before', message: 'must be the next cursor of a previous page' },
  ]);

/** "unix:id" (keyset, latest and oldest sorts) or "@offset" (company, category, priority). */
function parseBefore(before: string): { unix: number; id: string } | { offset: number } {
  const keyset = /^(\d{1,12}):(.{1,128})$/.exec(before);
  if (keyset) return { unix: Number(keyset[1]), id: keyset[2] };
  const offset = /^@(\d{1,9})$/.exec(before);
  if (offset) return { offset: Number(offset[1]) };
  throw badCursor();
}

const entries = (db: Db, feedId: string) =>
  db
    .selectFrom('feed_entries as e')
    .innerJoin('documents as d', 'd.id', 'e.document_id')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select([...CARD_COLUMNS, 'e.entry_seq', 'e.removed'])
    .where('e.feed_id', '=', feedId);

const toEntry = (row: CardRow & { entry_seq: number; removed: number }): BoardEntry => ({
  ...toCard(row),
  entry_seq: Number(row.entry_seq),
  removed: Number(row.removed) === 1,
});

export async function feedCount(
  db: Db,
  feedId: string,
  tab?: string,
  source?: string,
): Promise<number> {
  let q = db
    .selectFrom('feed_entries as e')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('e.feed_id', '=', feedId)
    .where('e.removed', '=', 0);
  if (tab) q = q.where('e.tab', '=', tab);
  if (source) {
    q = q.innerJoin('documents as d', 'd.id', 'e.document_id').where('d.source_key', '=', source);
  }
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** What changed in a feed after `afterSeq`, oldest change first. */
async function changesPage(db: Db, feed: Feed, query: BoardDocsQuery, afterSeq: number) {
  let q = entries(db, feed.feedId).where('e.entry_seq', '>', afterSeq);
  if (query.tab) q = q.where('e.tab', '=', query.tab);
  if (query.source) q = q.where('d.source_key', '=', query.source);
  const rows = await q
    .orderBy('e.entry_seq', 'asc')
    .limit(query.num_docs + 1)
    .execute();
  const page = rows.slice(0, query.num_docs).map((r) => toEntry(r as never));
  return {
    documents: page,
    next: null,
    seq: page.length ? page[page.length - 1].entry_seq : afterSeq,
    has_more: rows.length > query.num_docs,
  };
}

/** A page of the feed in `sort` order. */
async function sortedPage(db: Db, feed: Feed, query: BoardDocsQuery) {
  const before = query.before ? parseBefore(query.before) : null;
  const keyset = before && 'unix' in before ? before : null;
  const byTime = query.sort === 'latest' || query.sort === 'oldest';
  if (keyset && !byTime) throw badCursor();
  const offset =
    before && 'offset' in before ? before.offset : before ? 0 : (query.start_from ?? 0);
  const desc = query.sort !== 'oldest';
  let q = entries(db, feed.feedId).where('e.removed', '=', 0);
  if (query.tab) q = q.where('e.tab', '=', query.tab);
  if (query.source) q = q.where('d.source_key', '=', query.source);
  if (keyset) {
    const cmp = desc ? '<' : '>';
    q = q.where((eb) =>
      eb.or([
        eb('e.unix', cmp, keyset.unix),
        eb.and([eb('e.unix', '=', keyset.unix), eb('e.document_id', cmp, keyset.id)]),
      ]),
    );
  }
  if (query.sort === 'priority') {
    q = q.orderBy(priorityRank(feed.userId));
  } else if (!byTime) {
    const column = query.sort.startsWith('company') ? sql.ref('e.company') : sql.ref('e.category');
    const dir = query.sort.endsWith('_desc') ? sql`desc` : sql`asc`;
    // Documents without one go last either way.
    q = q
      .orderBy(sql`case when ${column} is null then 1 else 0 end`)
      .orderBy(sql`${column} ${dir}`);
  }
  const rows = await q
    .orderBy('e.unix', desc ? 'desc' : 'asc')
    .orderBy('e.document_id', desc ? 'desc' : 'asc')
    .limit(query.num_docs + 1)
    .offset(offset)
    .execute();
  const page = rows.slice(0, query.num_docs).map((r) => toEntry(r as never));
  const hasMore = rows.length > query.num_docs;
  const last = page[page.length - 1];
  const next =
    !hasMore || !last ? null : byTime ? `${last.unix}:${last.doc_id}` : `@${offset + page.length}`;
  return { documents: page, next, has_more: hasMore };
}

export async function feedPage(db: Db, feed: Feed, query: BoardDocsQuery): Promise<BoardDocs> {
  // Read before the rows: a document arriving meanwhile is then seen again, never missed.
  const newest = await feedSeq(db, feed.feedId);
  const count = await feedCount(db, feed.feedId, query.tab, query.source);
  if (query.after_seq !== undefined) {
    const page = await changesPage(db, feed, query, query.after_seq);
    return { results: { board_id: feed.boardId, count, version: feed.version, ...page } };
  }
  const page =
    query.num_docs === 0
      ? { documents: [], next: null, has_more: count > 0 }
      : await sortedPage(db, feed, query);
  return {
    results: { board_id: feed.boardId, count, seq: newest, version: feed.version, ...page },
  };
}
