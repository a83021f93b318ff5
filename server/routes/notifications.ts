import type { OpenAPIHono } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { NOTIFICATIONS_PAGE_SIZE } from '../../contract/constants';
import type { Notification } from '../../contract/notifications';
import { recordChange } from '../changes';
import { transact, type AppDeps, type AppEnv } from '../context';
import { defineEndpoint } from './define';

type Row = {
  id: string;
  title: string;
  body: string;
  link: string | null;
  read: number;
  created_at: string;
};

const toNotification = (r: Row): Notification => ({
  id: r.id,
  title: r.title,
  body: r.body,
  link: r.link,
  read: r.read === 1,
  created_at: r.created_at,
});

/** GET /notifications (20 a page, newest first) and POST /notifications/read. */
export const registerNotificationRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'notifications', async (c, { query, auth }) => {
    const db = c.var.db;
    const rows = await db
      .selectFrom('notifications')
      .select(['id', 'title', 'body', 'link', 'read', 'created_at'])
      .where('user_id', '=', auth.user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(NOTIFICATIONS_PAGE_SIZE)
      .offset((query.page - 1) * NOTIFICATIONS_PAGE_SIZE)
      .execute();
    const counts = await db
      .selectFrom('notifications')
      .select([
        sql<number>`cast(count(*) as integer)`.as('total'),
        sql<number>`cast(coalesce(sum(case when ${sql.ref('read')} = 0 then 1 else 0 end), 0) as integer)`.as(
          'unread',
        ),
      ])
      .where('user_id', '=', auth.user.id)
      .executeTakeFirstOrThrow();
    return {
      results: rows.map(toNotification),
      page: query.page,
      page_size: NOTIFICATIONS_PAGE_SIZE,
      total: Number(counts.total),
      unread: Number(counts.unread),
    };
  });

  defineEndpoint(app, deps.product, 'markNotificationsRead', async (c, { body, auth }) =>
    transact(c, async (db) => {
      const now = deps.now();
      // Only the caller's unread ones: someone else's id is silently not counted.
      const rows = await db
        .selectFrom('notifications')
        .select(['id', 'title', 'body', 'link', 'read', 'created_at'])
        .where('user_id', '=', auth.user.id)
        .where('id', 'in', [...new Set(body.ids)])
        .where('read', '=', 0)
        .execute();
      if (rows.length === 0) return { updated: 0 };
      await db
        .updateTable('notifications')
        .set({ read: 1 })
        .where('user_id', '=', auth.user.id)
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      for (const row of rows) {
        await recordChange(
          db,
          auth.user.id,
          {
            entity: 'notification',
            entity_id: row.id,
            op: 'upsert',
            data: toNotification({ ...row, read: 1 }),
          },
          now,
        );
      }
      return { updated: rows.length };
    }),
  );
};
