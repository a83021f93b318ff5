import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { NOTIFICATIONS_PAGE_SIZE } from '../../contract/constants';
import type { Notification, NotificationsPage } from '../../contract/notifications';
import type { Db } from '../db/schema';
import { recordChange } from '../sync';

const COLUMNS = ['id', 'title', 'body', 'link', 'read', 'created_at'] as const;

type Row = {
  id: string;
  title: string;
  body: string;
  link: string | null;
  read: number;
  created_at: string;
};

/** A row as the contract's Notification (booleans are 0/1 in the database). */
export const toNotification = (r: Row): Notification => ({
  id: r.id,
  title: r.title,
  body: r.body,
  link: r.link,
  read: r.read === 1,
  created_at: r.created_at,
});

/** How many notifications the user has, all or unread only (index notifications_user_read). */
const countOf = async (db: Db, userId: string, unreadOnly: boolean): Promise<number> => {
  let query = db
    .selectFrom('notifications')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('user_id', '=', userId);
  if (unreadOnly) query = query.where('read', '=', 0);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

/** One page of the user's notifications, newest first, with the totals the badge shows. */
export const notificationsPage = async (
  db: Db,
  userId: string,
  page: number,
): Promise<NotificationsPage> => {
  const rows = await db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(NOTIFICATIONS_PAGE_SIZE)
    .offset((page - 1) * NOTIFICATIONS_PAGE_SIZE)
    .execute();
  return {
    results: rows.map(toNotification),
    page,
    page_size: NOTIFICATIONS_PAGE_SIZE,
    total: await countOf(db, userId, false),
    unread: await countOf(db, userId, true),
  };
};

/**
 * Marks the user's own unread notifications among `ids` read and records each in the change
 * log, so the user's other devices hear of it. Someone else's id is silently not counted.
 * Call inside the request's transaction.
 */
export const markRead = async (
  db: Db,
  userId: string,
  ids: readonly string[],
  now: number,
): Promise<number> => {
  const rows = await db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('id', 'in', [...new Set(ids)])
    .where('read', '=', 0)
    .execute();
  if (rows.length === 0) return 0;
  await db
    .updateTable('notifications')
    .set({ read: 1 })
    .where('user_id', '=', userId)
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  for (const row of rows) {
    const data = toNotification({ ...row, read: 1 });
    await recordChange(
      db,
      userId,
      { entity: 'notification', entity_id: row.id, op: 'upsert', data },
      now,
    );
  }
  return rows.length;
};

/**
 * Puts a notification in the user's inbox (unread unless `read`), recorded in the change log so
 * every device shows it. Other domains notify through this (a summary ready, the demo's inbox).
 * Call inside the caller's transaction.
 */
export const addNotification = async (
  db: Db,
  userId: string,
  note: { title: string; body: string; link: string | null; read?: boolean; at: string },
  now: number,
): Promise<Notification> => {
  const row: Row = {
    id: randomUUID(),
    title: note.title,
    body: note.body,
    link: note.link,
    read: note.read ? 1 : 0,
    created_at: note.at,
  };
  await db
    .insertInto('notifications')
    .values({ ...row, user_id: userId })
    .execute();
  const data = toNotification(row);
  await recordChange(
    db,
    userId,
    { entity: 'notification', entity_id: row.id, op: 'upsert', data },
    now,
  );
  return data;
};
