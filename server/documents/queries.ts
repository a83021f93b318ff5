import type { DocumentDetail, ReadList, ReadState } from '../../contract/documents';
import type { Db } from '../db/schema';
import {
  lockUserRow,
  recordChange,
  reserveChangeSeq,
  writeChange,
  type ChangeInput,
} from '../sync';
import { iso } from '../time';
import { CARD_COLUMNS, toDetail, type CardRow } from './cards';

/**
 * Documents a user may open: one of a source they follow, one of the public corpus (a public
 * source nobody owns, which web search and the assistant's web scope read), or their own; never
 * one owned by someone else or from someone else's private source. Every read of a document goes through
 * this (a document outside it answers 404, as if it did not exist).
 */
export const visibleDocuments = (db: Db, userId: string) =>
  db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .leftJoin('source_follows as f', (join) =>
      join.onRef('f.source_id', '=', 'd.source_id').on('f.user_id', '=', userId),
    )
    .where((eb) =>
      eb.and([
        eb.or([
          eb('f.user_id', 'is not', null),
          eb('d.owner_user_id', '=', userId),
          // The public corpus ({product}_web, {product}_universe) is anyone's to read.
          eb.and([eb('s.public', '=', 1), eb('s.owner_user_id', 'is', null)]),
        ]),
        eb.or([eb('d.owner_user_id', 'is', null), eb('d.owner_user_id', '=', userId)]),
        eb.or([eb('s.owner_user_id', 'is', null), eb('s.owner_user_id', '=', userId)]),
      ]),
    );

/** A whole document for its preview, or undefined when the user may not see it. */
export async function documentFor(
  db: Db,
  userId: string,
  source: string,
  deeplink: string,
): Promise<DocumentDetail | undefined> {
  const row = await visibleDocuments(db, userId)
    .leftJoin('read_marks as r', (join) =>
      join.onRef('r.document_id', '=', 'd.id').on('r.user_id', '=', userId),
    )
    .select([...CARD_COLUMNS, 'd.html', 'd.plain_text as full_text', 'r.mark_seq'])
    .where('d.id', '=', deeplink)
    .where((eb) => eb.or([eb('s.key', '=', source), eb('s.id', '=', source)]))
    .executeTakeFirst();
  return row ? toDetail(row as CardRow & typeof row, row.mark_seq !== null) : undefined;
}

const readChange = (deeplink: string, read: boolean): ChangeInput => ({
  entity: 'read_status',
  entity_id: deeplink,
  op: 'upsert',
  data: { deeplink, read },
});

/**
 * Marks documents read or unread for the user; documents they may not see are silently not
 * counted. Each document whose state changed gets a 'read_status' change, so every tab and
 * device hears of it. The user's row is locked first, so two tabs marking at once take turns
 * (and count each document once). Call inside the request's transaction.
 */
export async function setReadState(
  db: Db,
  userId: string,
  deeplinks: string[],
  status: ReadState,
  now: number,
): Promise<number> {
  const ids = [...new Set(deeplinks)];
  await lockUserRow(db, userId);
  if (status === 'unread') {
    const removed = await db
      .deleteFrom('read_marks')
      .where('user_id', '=', userId)
      .where('document_id', 'in', ids)
      .returning('document_id')
      .execute();
    const changed = removed.map((r) => r.document_id).sort();
    for (const deeplink of changed) {
      await recordChange(db, userId, readChange(deeplink, false), now);
    }
    return changed.length;
  }
  return (await markRead(db, userId, ids, now)).length;
}

/** Marks the visible, unread ones of `ids` read (the user's row locked); answers those. */
async function markRead(db: Db, userId: string, ids: string[], now: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const unread = await visibleDocuments(db, userId)
    .leftJoin('read_marks as r', (join) =>
      join.onRef('r.document_id', '=', 'd.id').on('r.user_id', '=', userId),
    )
    .select('d.id')
    .where('d.id', 'in', ids)
    .where('r.document_id', 'is', null)
    .execute();
  const changed = unread.map((r) => r.id).sort();
  // A mark is numbered by its change: the user's own sequence orders the cursor list, and
  // marking read never waits on the content counter that ingestion holds.
  for (const deeplink of changed) {
    const seq = await reserveChangeSeq(db, userId);
    await db
      .insertInto('read_marks')
      .values({ user_id: userId, document_id: deeplink, mark_seq: seq, updated_at: iso(now) })
      .execute();
    await writeChange(db, userId, seq, readChange(deeplink, true), now);
  }
  return changed;
}

/**
 * Mark all read (POST /boards/{id}/read-all): the feed's entries dated at or before `before`
 * (unix seconds), within `tab` and `source` when given, that the user has not read: at most
 * `limit`, newest first, marked read like setReadState. Answers exactly the documents marked
 * (what an undo restores) and whether more unread ones remain. `feedId` must be the user's
 * (the route resolves it from a board the user owns). Call inside the request's transaction.
 */
export async function markFeedRead(
  db: Db,
  userId: string,
  feedId: string,
  filter: { before: number; tab?: string | null; source?: string | null },
  limit: number,
  now: number,
): Promise<{ deeplinks: string[]; has_more: boolean }> {
  await lockUserRow(db, userId);
  let q = db
    .selectFrom('feed_entries as e')
    .leftJoin('read_marks as r', (join) =>
      join.onRef('r.document_id', '=', 'e.document_id').on('r.user_id', '=', userId),
    )
    .select('e.document_id')
    .where('e.feed_id', '=', feedId)
    .where('e.removed', '=', 0)
    .where('e.unix', '<=', filter.before)
    .where('r.document_id', 'is', null);
  if (filter.tab) q = q.where('e.tab', '=', filter.tab);
  if (filter.source) {
    q = q
      .innerJoin('documents as d', 'd.id', 'e.document_id')
      .where('d.source_key', '=', filter.source);
  }
  const rows = await q
    .orderBy('e.unix', 'desc')
    .orderBy('e.document_id', 'desc')
    .limit(limit + 1)
    .execute();
  const ids = rows.slice(0, limit).map((r) => r.document_id);
  const marked: string[] = [];
  // In slices: one `in (...)` list stays well under the databases' parameter limits.
  for (let i = 0; i < ids.length; i += 500) {
    marked.push(...(await markRead(db, userId, ids.slice(i, i + 500), now)));
  }
  return { deeplinks: marked, has_more: rows.length > limit };
}

/** The user's read documents after a cursor, oldest mark first. */
export async function readList(
  db: Db,
  userId: string,
  after: number,
  limit: number,
): Promise<ReadList> {
  const rows = await db
    .selectFrom('read_marks')
    .select(['document_id', 'mark_seq'])
    .where('user_id', '=', userId)
    .where('mark_seq', '>', after)
    .orderBy('mark_seq', 'asc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    deeplinks: page.map((r) => r.document_id),
    cursor: page.length ? Number(page[page.length - 1].mark_seq) : after,
    has_more: rows.length > limit,
  };
}

/** Whether one document is read, or undefined when the user may not see it. */
export async function readStateOf(
  db: Db,
  userId: string,
  deeplink: string,
): Promise<ReadState | undefined> {
  const row = await visibleDocuments(db, userId)
    .leftJoin('read_marks as r', (join) =>
      join.onRef('r.document_id', '=', 'd.id').on('r.user_id', '=', userId),
    )
    .select(['d.id', 'r.mark_seq'])
    .where('d.id', '=', deeplink)
    .executeTakeFirst();
  if (!row) return undefined;
  return row.mark_seq === null ? 'unread' : 'read';
}
