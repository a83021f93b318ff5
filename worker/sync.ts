import type { z } from 'zod';
import type { Change } from '../contract/sync';
import { FeatureConfig, Notification, OrganizationSelf, Preferences } from '../contract/user';
import type { ApiClient } from './api-client';
import type { Mirror, PatchItem } from './mirror';
import { KV, type NotificationsPageMeta } from './reads';
import type { Owner } from './session';

export type Sync = {
  /** Pull the change feed after the stored cursor (looping while it has more). */
  pull(): Promise<{ applied: number; cursor: number }>;
};

/** The cursor is the user's: a sequence number of one user means nothing for another. */
const cursorKey = (userId: string) => `changes:${userId}`;

/**
 * The change-feed pull: the server keeps a per-user change sequence; the worker pulls what came
 * after its cursor and writes it into the mirror, so every tab and every device converges
 * without refetching everything. Concurrent pulls share one run (plus one more if asked again
 * meanwhile, so a change made during a pull is not missed).
 */
export function createSync(deps: {
  mirror: Promise<Mirror>;
  client: ApiClient;
  /** The session pulling; its changes are written only while it is the stored one. */
  owner: () => Owner | null;
  /** Logical stores changed: tell the tabs. */
  announce: (stores: string[]) => void;
}): Sync {
  let running: Promise<{ applied: number; cursor: number }> | null = null;
  let again = false;

  const once = async () => {
    const mirror = await deps.mirror;
    const owner = deps.owner();
    let applied = 0;
    if (!owner) return { applied, cursor: 0 };
    const key = cursorKey(owner.user_id);
    let cursor = (await mirror.get<number>('cursors', key)) ?? 0;
    const stores = new Set<string>();
    for (;;) {
      const page = await deps.client.call('changes', {
        query: { after: cursor },
        background: true,
      });
      const items: PatchItem[] = [];
      const touched: Array<[PatchItem, string]> = [];
      for (const change of page.changes) {
        const from = items.length;
        const store = await apply(mirror, change, items);
        if (store) for (const item of items.slice(from)) touched.push([item, store]);
      }
      // Tabs hear only of what differs from the mirror (our own confirmed writes do not).
      const before = await mirror.snapshot(items);
      for (const [item, store] of touched) {
        const old = before.find((b) => b.store === item.store && b.key === item.key);
        if (JSON.stringify(old?.value) !== JSON.stringify(item.value)) stores.add(store);
      }
      // The cursor moves in the same transaction as the changes it covers, and neither lands
      // once the session has ended (signed out or another sign-in): they are not the mirror's.
      const cursorItem: PatchItem = { store: 'cursors', key, value: page.cursor };
      if (!(await mirror.write([...items, cursorItem], owner.guard))) {
        return { applied, cursor };
      }
      applied += page.changes.length;
      cursor = page.cursor;
      if (!page.has_more || page.changes.length === 0) break;
    }
    if (stores.size) deps.announce([...stores]);
    return { applied, cursor };
  };

  return {
    pull() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        let result = { applied: 0, cursor: 0 };
        do {
          again = false;
          result = await once();
          total += result.applied;
        } while (again);
        return { applied: total, cursor: result.cursor };
      })().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

/** Writes one change into `items`; returns the logical store it touched, if any. */
async function apply(mirror: Mirror, change: Change, items: PatchItem[]) {
  switch (change.entity) {
    case 'preferences':
      items.push(kvItem(KV.preferences, Preferences, change));
      return 'preferences';
    case 'feature_config':
      items.push(kvItem(KV.featureConfig, FeatureConfig, change));
      return 'flags';
    case 'organization':
      items.push(kvItem(KV.org, OrganizationSelf, change));
      return 'org';
    case 'notification':
      return applyNotification(mirror, change, items);
    default:
      return null;
  }
}

/**
 * A kv record a change replaces whole: an upsert of a shape we know stores it; a delete, or a
 * shape we do not know, clears it so the next read refetches it.
 */
function kvItem<T>(key: string, schema: z.ZodType<T>, change: Change): PatchItem {
  const parsed = schema.safeParse(change.data);
  const value = change.op === 'upsert' && parsed.success ? parsed.data : undefined;
  return { store: 'kv', key, value };
}

async function applyNotification(mirror: Mirror, change: Change, items: PatchItem[]) {
  const pending = (key: string) =>
    items.findLast((i) => i.store === 'notifications' && i.key === key);
  const before =
    (pending(change.entity_id)?.value as Notification | undefined) ??
    (await mirror.get<Notification>('notifications', change.entity_id));
  const parsed = Notification.safeParse(change.data);
  if (change.op === 'delete' || !parsed.success) {
    items.push({ store: 'notifications', key: change.entity_id });
  } else {
    items.push({ store: 'notifications', key: change.entity_id, value: parsed.data });
  }
  const after = change.op === 'upsert' && parsed.success ? parsed.data : undefined;
  // Keep the cached pages' unread counts right when a known notification flips read state.
  const delta = (before && !before.read ? 1 : 0) - (after && !after.read ? 1 : 0);
  if (delta !== 0) {
    const pages = await pageMetas(mirror, items);
    for (const { key, meta } of pages) {
      items.push({
        store: 'kv',
        key,
        value: { ...meta, unread: Math.max(0, meta.unread - delta) },
      });
    }
  }
  return 'notifications';
}

/** The cached notification pages, as `items` would leave them. */
async function pageMetas(mirror: Mirror, items: PatchItem[]) {
  const out: { key: string; meta: NotificationsPageMeta }[] = [];
  for (const key of await mirror.keys('kv')) {
    if (!KV.isNotificationsPage(key)) continue;
    const pending = items.findLast((i) => i.store === 'kv' && i.key === key);
    const meta = (pending ? pending.value : await mirror.get('kv', key)) as
      NotificationsPageMeta | undefined;
    if (meta) out.push({ key, meta });
  }
  return out;
}
