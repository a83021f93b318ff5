import { z } from 'zod';
import { NOTIFICATIONS_PAGE_SIZE } from './constants';
import { defineDomain, endpoint, id, op } from './define';

export const Notification = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof Notification>;

/** GET /notifications?page=N: page size 20; ask for the next page only after a full one. */
export const NotificationsQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int({ message: 'page must be a whole number' })
    .min(1, { message: 'page must be 1 or more' })
    .max(1_000_000, { message: 'page must be at most 1000000' })
    .default(1),
});
export const NotificationsPage = z.object({
  results: z.array(Notification),
  page: z.number().int().min(1),
  page_size: z.number().int(),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type NotificationsPage = z.infer<typeof NotificationsPage>;

export const MarkNotificationsReadBody = z
  .object({
    ids: z
      .array(id('ids[]'))
      .min(1, { message: 'ids must not be empty' })
      .max(100, { message: 'ids holds at most 100 ids' }),
  })
  .strict();
export type MarkNotificationsReadBody = z.infer<typeof MarkNotificationsReadBody>;
export const MarkNotificationsReadResult = z.object({ updated: z.number().int().nonnegative() });

/**
 * The key of the list record in the worker's 'notifications' store (the list's counts and how
 * much of it is mirrored). A 'changed' event for 'notifications' names it when the counts
 * moved; it is never a notification's id.
 */
export const NOTIFICATIONS_LIST_KEY = '#list';

/** The most rows one window read answers: a screenful or two, never the whole list. */
export const MAX_WINDOW = 500;

/** A window of the list, newest first: `count` rows from position `offset`. */
export const NotificationsWindowInput = z.object({
  offset: z.number().int().min(0).max(100_000_000),
  count: z.number().int().min(1).max(MAX_WINDOW),
});
export const NotificationsWindow = z.object({
  offset: z.number().int().min(0),
  /**
   * The rows the mirror holds from `offset` on, in order (fewer than asked near the end, or
   * while the rest is still loading: a 'changed' event follows when it lands).
   */
  rows: z.array(Notification),
  /** How many notifications the list has in all (the server's count). */
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type NotificationsWindow = z.infer<typeof NotificationsWindow>;

/**
 * The unread-count rule, for server, worker and change feed alike: how the unread count moves
 * when a notification goes from `before` to `after` (undefined: absent).
 */
export const unreadDelta = (
  before: Pick<Notification, 'read'> | undefined,
  after: Pick<Notification, 'read'> | undefined,
): number => (after && !after.read ? 1 : 0) - (before && !before.read ? 1 : 0);

/** An unread count moved by `delta`, never below zero. */
export const nextUnread = (unread: number, delta: number) => Math.max(0, unread + delta);

/**
 * Notifications: the worked example of a domain (README "Adding a domain"). The read call is
 * "not shown" in the spec and designed here.
 */
export const notifications = defineDomain({
  name: 'notifications',
  endpoints: {
    notifications: endpoint({
      method: 'get',
      path: '/notifications',
      auth: true,
      query: NotificationsQuery,
      response: NotificationsPage,
      status: 200,
      summary: `Notifications, ${NOTIFICATIONS_PAGE_SIZE} a page, newest first`,
    }),
    markNotificationsRead: endpoint({
      method: 'post',
      path: '/notifications/read',
      auth: true,
      body: MarkNotificationsReadBody,
      response: MarkNotificationsReadResult,
      status: 200,
      summary: 'Mark notifications read',
    }),
  },
  ops: {
    'notifications.page': op(
      z.object({ page: z.number().int().min(1).max(1_000_000) }),
      NotificationsPage,
    ),
    'notifications.window': op(NotificationsWindowInput, NotificationsWindow),
    'notifications.markRead': op(MarkNotificationsReadBody, z.void()),
    /** The unread count alone (the top bar's badge), from the mirror's list record. */
    'notifications.unread': op(z.object({}), z.object({ unread: z.number().int().nonnegative() })),
  },
  changes: { notification: Notification },
  stores: ['notifications'],
});
