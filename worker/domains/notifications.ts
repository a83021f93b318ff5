import {
  NOTIFICATIONS_LIST_KEY as LIST_KEY,
  nextUnread,
  notifications,
  unreadDelta,
  type Notification,
} from '../../contract/notifications';
import type { PatchItem } from '../mirror';
import { defineWorkerDomain } from '../registry';
import {
  loadThrough,
  mirrors,
  NEWEST_FIRST,
  readList,
  readPage,
  readWindow,
  STORE,
  type ListRecord,
  type S,
} from './notifications-list';

/**
 * Notifications, the worked example of a domain (README "Adding a domain"): one store keyed by
 * id with a newest-first index, windows read from it (notifications-list.ts), mark-read sent
 * through the outbox with its optimistic effect, and the change feed's 'notification' entity.
 */
export const notificationsDomain = defineWorkerDomain(notifications, {
  stores: {
    notifications: {
      keyPath: 'id',
      indexes: { [NEWEST_FIRST]: { keyPath: ['created_at', 'id'] } },
      version: 1,
    },
  },
  reads: {
    'notifications.window': (ctx, { offset, count }, conn) =>
      readWindow(ctx, offset, count, conn.variant),
    'notifications.page': (ctx, { page }, conn) => readPage(ctx, page, conn.variant),
    // The mirrored list's count, without revalidating (the badge re-reads on every change, and
    // the list screen revalidates page 1); with nothing mirrored it waits for page 1.
    async 'notifications.unread'(ctx, _input, conn) {
      const mirror = await ctx.mirror;
      let list = await readList(mirror);
      if (!list) {
        await loadThrough(ctx, 1, conn.variant, false);
        list = await readList(mirror);
      }
      return { unread: list?.unread ?? 0 };
    },
  },
  mutations: {
    'notifications.markRead': {
      endpoint: 'markNotificationsRead',
      // Marking the same notifications twice keeps its order; other marks go independently.
      orderKey: ({ ids }) => [...new Set(ids)].sort().join('\u0000'),
      async optimistic(ctx, { ids }) {
        const mirror = await ctx.mirror;
        const items: PatchItem<S>[] = [];
        let delta = 0;
        for (const id of new Set(ids)) {
          if (id === LIST_KEY) continue;
          const row = await mirror.get<Notification>(STORE, id);
          if (!row || row.read) continue;
          const read = { ...row, read: true };
          delta += unreadDelta(row, read);
          items.push({ store: STORE, key: id, value: read });
        }
        const list = await readList(mirror);
        if (list && delta !== 0) {
          const moved: ListRecord = { ...list, unread: nextUnread(list.unread, delta) };
          items.push({ store: STORE, key: LIST_KEY, value: moved });
        }
        return items;
      },
      deferred: () => undefined,
    },
  },
  changes: {
    async notification(change, tx) {
      const list = await tx.get<ListRecord>(STORE, LIST_KEY);
      // No list mirrored: its first read fetches it whole.
      if (!list || change.id === LIST_KEY) return;
      const before = await tx.get<Notification>(STORE, change.id);
      const after = change.op === 'upsert' ? change.data : undefined;
      // Not mirrored and further down than the mirrored part: its page brings it.
      if (!before && (!after || !mirrors(list, after))) return;
      tx.put(STORE, change.id, after);
      const total = list.total + (after ? 1 : 0) - (before ? 1 : 0);
      const unread = nextUnread(list.unread, unreadDelta(before, after));
      tx.put(STORE, LIST_KEY, { ...list, total, unread } satisfies ListRecord);
    },
  },
});
