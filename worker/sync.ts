import type { Change } from '../contract/sync';
import type { ApiClient } from './api-client';
import type { Changes, Mirror, PatchItem } from './mirror';
import type { ReadKit } from './reads';
import type { Registry } from './registry-build';
import type { ChangeTx, DomainContext, EntityChange } from './registry';
import type { Owner } from './session';

export type Sync = {
  /** Pull the change feed after the stored cursor (looping while it has more). */
  pull(): Promise<{ applied: number; cursor: number }>;
};

/** The cursor is the user's: a sequence number of one user means nothing for another. */
export const cursorKey = (userId: string) => `changes:${userId}`;

/**
 * The change-feed pull: the server keeps a per-user change sequence; the worker pulls what came
 * after its cursor and each change's domain writes it into the mirror, so every tab and every
 * device converges without refetching everything. A cursor older than the history the server
 * keeps gets a reset instead: the domains' stores are cleared, every tab is told to read again
 * (which refetches) and the domains fetch again what they cache forever. Concurrent pulls
 * share one run (plus one more if asked again meanwhile, so a change made during a pull is not
 * missed).
 */
export function createSync(deps: {
  mirror: Promise<Mirror<string>>;
  client: ApiClient;
  /** The session pulling; its changes are written only while it is the stored one. */
  owner: () => Owner | null;
  signal: () => AbortSignal;
  changes: Registry['changes'];
  /** The domains' stores: what a reset clears. */
  domainStores: readonly string[];
  reads: ReadKit;
  /** After a reset: the domains fetch again what they cache forever. */
  afterReset: () => void;
  /** What an applier's `after` work runs with, in the background. */
  context: DomainContext;
  track: (work: Promise<unknown>) => void;
}): Sync {
  let running: Promise<{ applied: number; cursor: number }> | null = null;
  let again = false;

  const applyPage = async (mirror: Mirror<string>, changes: Change[]) => {
    const view = createChangeView(mirror);
    for (const change of changes) {
      const entity = deps.changes.get(change.entity);
      if (!entity) continue; // An entity this build does not mirror.
      const parsed = change.op === 'upsert' ? entity.schema.safeParse(change.data) : null;
      const typed: EntityChange<unknown> = parsed?.success
        ? { op: 'upsert', id: change.entity_id, data: parsed.data }
        : { op: 'delete', id: change.entity_id };
      await entity.apply(typed, view.tx);
    }
    return { items: view.items(), after: view.after() };
  };

  /** Clears the domains' stores and moves the cursor, in one transaction, while `owner` lasts. */
  const reset = async (mirror: Mirror<string>, owner: Owner, key: string, cursor: number) => {
    const stores = [...deps.domainStores, 'cursors', 'kv'];
    const done = await mirror.transact(stores, async (tx) => {
      if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return false;
      for (const store of deps.domainStores) tx.clear(store);
      tx.put({ store: 'cursors', key, value: cursor });
      return true;
    });
    if (!done) return false;
    for (const store of deps.domainStores) deps.reads.announce(store, null);
    deps.afterReset();
    return true;
  };

  const once = async () => {
    const mirror = await deps.mirror;
    const owner = deps.owner();
    let applied = 0;
    if (!owner) return { applied, cursor: 0 };
    const key = cursorKey(owner.user_id);
    let cursor = (await mirror.get<number>('cursors', key)) ?? 0;
    // Tabs hear once per pull, of every key any page changed.
    const heard: Changes<string> = new Map();
    for (;;) {
      const page = await deps.client.call('changes', {
        query: { after: cursor },
        background: true,
        signal: deps.signal(),
      });
      if (page.reset) {
        if (!(await reset(mirror, owner, key, page.cursor))) return { applied, cursor };
        heard.clear();
        cursor = page.cursor;
        if (!page.has_more) break;
        continue;
      }
      // The cursor moves in the same transaction as the changes it covers, and neither lands
      // once the session has ended (signed out or another sign-in): they are not the mirror's.
      const { items, after } = await applyPage(mirror, page.changes);
      items.push({ store: 'cursors', key, value: page.cursor });
      const changes = await deps.reads.store(items, owner, false);
      if (!changes) return { applied, cursor };
      for (const work of after) {
        deps.track(Promise.resolve().then(() => work(deps.context)));
      }
      merge(heard, changes);
      applied += page.changes.length;
      cursor = page.cursor;
      if (!page.has_more || page.changes.length === 0) break;
    }
    deps.reads.announceChanges(heard);
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

/**
 * The mirror as a pull's changes see it: reads find the writes of earlier changes of the same
 * pull first (a map by store and key, no scan), writes are collected to land together.
 */
function createChangeView(mirror: Mirror<string>) {
  const pending = new Map<string, PatchItem<string>>();
  const later: Array<(ctx: DomainContext) => Promise<unknown> | void> = [];
  const id = (store: string, key: string) => `${store}\u0000${key}`;
  const tx: ChangeTx<string> = {
    async get<T>(store: string, key: string) {
      const item = pending.get(id(store, key));
      if (item) return item.value as T | undefined;
      return mirror.get<T>(store, key);
    },
    put(store, key, value) {
      pending.set(id(store, key), { store, key, value });
    },
    after(work) {
      later.push(work);
    },
  };
  return { tx, items: () => [...pending.values()], after: () => later };
}

function merge(into: Changes<string>, changes: Changes<string>) {
  for (const [store, keys] of changes) {
    const known = into.get(store);
    into.set(store, known ? [...new Set([...known, ...keys])] : keys);
  }
}
