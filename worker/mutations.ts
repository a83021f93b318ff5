import type {
  MarkNotificationsReadBody,
  Notification,
  Preferences,
  PreferencesPatch,
} from '../contract/user';
import type { Mirror, PatchItem } from './mirror';
import type { OutboxOp } from './outbox';
import { KV, type NotificationsPageMeta } from './reads';

const EMPTY_PREFERENCES: Preferences = { nav_state: null, overlay_widths: {} };

const merge = (base: Preferences, patch: PreferencesPatch): Preferences => ({
  nav_state: patch.nav_state === undefined ? base.nav_state : patch.nav_state,
  overlay_widths: { ...base.overlay_widths, ...patch.overlay_widths },
});

/**
 * The mutation ops the outbox carries: which endpoint each calls, how it shows in the mirror
 * before the server answers, and what it stores once the server confirms.
 */
export function createMutations(mirror: Promise<Mirror>): Record<string, OutboxOp> {
  const currentPreferences = async () =>
    (await (await mirror).get<Preferences>('kv', KV.preferences)) ?? EMPTY_PREFERENCES;

  return {
    'preferences.update': {
      endpoint: 'updatePreferences',
      stores: ['preferences'],
      async optimistic(input) {
        const next = merge(await currentPreferences(), input as PreferencesPatch);
        return [{ store: 'kv', key: KV.preferences, value: next }];
      },
      confirmedWrites: (_input, result) => [{ store: 'kv', key: KV.preferences, value: result }],
      output: (result) => result,
      // Offline, the caller sees what the mirror shows: its change already applied.
      deferred: () => currentPreferences(),
    },
    'notifications.markRead': {
      endpoint: 'markNotificationsRead',
      stores: ['notifications'],
      async optimistic(input) {
        const db = await mirror;
        const items: PatchItem[] = [];
        let flipped = 0;
        for (const id of new Set((input as MarkNotificationsReadBody).ids)) {
          const record = await db.get<Notification>('notifications', id);
          if (!record || record.read) continue;
          flipped += 1;
          items.push({ store: 'notifications', key: id, value: { ...record, read: true } });
        }
        if (flipped > 0) {
          for (const key of await db.keys('kv')) {
            if (!KV.isNotificationsPage(key)) continue;
            const meta = await db.get<NotificationsPageMeta>('kv', key);
            if (meta) {
              items.push({
                store: 'kv',
                key,
                value: { ...meta, unread: Math.max(0, meta.unread - flipped) },
              });
            }
          }
        }
        return items;
      },
      deferred: () => undefined,
    },
    'log.debug': { endpoint: 'debugLogs', stores: [] },
    'analytics.report': { endpoint: 'analyticsReport', stores: [] },
  };
}
