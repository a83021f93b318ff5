import {
  feedEntryKey,
  type boards,
  type BoardEntry,
  type BoardSort,
} from '../../../contract/boards';
import {
  feedTabOf,
  type CategoryTabInfo,
  type FeedTabKey,
  type ResultCard,
} from '../../../contract/documents';
import type { Mirror, MirrorTx, StoreSpec, WindowQuery } from '../../mirror';
import { prefixWindow } from '../../mirror-query';
import type { DomainCtx, StoreOf } from '../../registry';
import type { Owner } from '../../session';
import type { FeedStates } from './feed-sync';

/**
 * The feed mirror, store 'feed_entries': one record per (feed, document) holding the card and
 * the fields each sort and tab reads by index range, so a window of a 100k-item feed is an
 * index walk from the nearest anchor (mirror-reads.ts), never a scan. Beside the entries, one
 * meta record per feed (no index fields, so no index holds it) says how far the mirror has
 * come and keeps the mirrored count per tab, moved by every write, so a total costs one get.
 */

export type S = StoreOf<typeof boards>;
/** The feeds' context: their state in a workspace is each feed's sync (feed-sync.ts). */
export type Ctx = DomainCtx<S, FeedStates>;
export const FEED = 'feed_entries' satisfies S;

export type EntryRecord = {
  id: string;
  feed: string;
  doc: string;
  tab: FeedTabKey;
  source: string;
  unix: number;
  entry_seq: number;
  card: ResultCard;
  /**
   * Index keys of the time order, within the feed and within the feed's tab. Only the time
   * order is indexed: each index entry costs every write of a 100k-item sync, and the other
   * orders (company, category) and one source's view are the server's pages (feed-window.ts).
   */
  k_time: Array<string | number>;
  k_tab_time: Array<string | number>;
};

/** Where the feed's mirror stands. */
export type BoardMirrorMeta = {
  id: string;
  board: string;
  /** This mirror of the feed: a reset makes a new one, and work for an old one is dropped. */
  gen: string;
  /** The definition version the entries belong to. */
  version: number;
  /** Entry changes through this sequence number are applied (after_seq follows from it). */
  seq: number;
  /** The newest-first prefix: backfill has begun, goes on from `next`, ends at `boundary`. */
  started: boolean;
  next: string | null;
  /** The oldest [unix, doc] of the prefix: every entry at or above it is mirrored. */
  boundary: [number, string] | null;
  /** The prefix is the whole feed. */
  complete: boolean;
  /** The server's counts ('*': all tabs), until the mirror is complete. */
  server: Record<string, number>;
  /** Entries the mirror holds, by countKey(source, tab). */
  counts: Record<string, number>;
};

/** The key of a mirrored count: per source (null: all) and tab (null: all). */
export const countKey = (source: string | null, tab: string | null) =>
  `${source ?? ''}|${tab ?? '*'}`;

/** feedEntryKey's separator: board ids and document ids never hold it. */
const SEP = '|';
export const entryKey = feedEntryKey;
export const metaKey = (feed: string) => `#${feed}`;
export const tabsKey = (feed: string) => `#tabs:${feed}`;
/** Every entry key of a feed. */
export const feedRange = (feed: string) => ({
  lower: `${feed}${SEP}`,
  upper: `${feed}${SEP}\uffff`,
});

export const FEED_ENTRIES_SPEC: StoreSpec = {
  keyPath: 'id',
  indexes: {
    time: { keyPath: 'k_time' },
    tab_time: { keyPath: 'k_tab_time' },
  },
  version: 2,
};

export const toRecord = (feed: string, entry: BoardEntry | ResultCard): EntryRecord => {
  const card: ResultCard & Partial<Pick<BoardEntry, 'entry_seq' | 'removed'>> = { ...entry };
  const entrySeq = card.entry_seq ?? card.seq;
  delete card.entry_seq;
  delete card.removed;
  const { doc_id: doc, unix } = card;
  const tab = feedTabOf(card);
  return {
    id: entryKey(feed, doc),
    feed,
    doc,
    tab,
    source: card.source,
    unix,
    entry_seq: entrySeq,
    card,
    k_time: [feed, unix, doc],
    k_tab_time: [feed, tab, unix, doc],
  };
};

/** Sorts the mirror reads by index: the time order (newest or oldest first). */
export const isTimeSort = (sort: BoardSort): sort is 'latest' | 'oldest' =>
  sort === 'latest' || sort === 'oldest';

/** The index walk of a time-ordered window within a feed (a tab): index, direction, bounds. */
export function windowQuery(
  feed: string,
  view: { tab: string | null; sort: 'latest' | 'oldest' },
  offset: number,
  count: number,
): WindowQuery {
  const prefix: string[] = [feed, ...(view.tab === null ? [] : [view.tab])];
  const index = view.tab === null ? 'time' : 'tab_time';
  return prefixWindow(index, prefix, view.sort === 'latest' ? 'prev' : 'next', offset, count);
}

/** Whether [unix, doc] sorts at or above the prefix's boundary (newest first). */
export const withinPrefix = (meta: BoardMirrorMeta, unix: number, doc: string) =>
  meta.complete ||
  (meta.boundary !== null &&
    (unix > meta.boundary[0] || (unix === meta.boundary[0] && doc >= meta.boundary[1])));

/**
 * The keys of every feed entry showing one of `docs`: each mirrored feed (its meta record)
 * times each document, those that exist. No index by document: it would cost every write of a
 * sync for a lookup that read-state changes make now and then.
 */
export async function feedKeysOfDocs(mirror: Mirror<S>, docs: string[]): Promise<string[]> {
  const metas = await mirror.range<Partial<BoardMirrorMeta>>(FEED, {
    lower: '#',
    upper: '#\uffff',
  });
  const feeds = metas.flatMap((m) => (typeof m.board === 'string' ? [m.board] : []));
  const candidates = feeds.flatMap((feed) => docs.map((doc) => entryKey(feed, doc)));
  const found = await mirror.getMany(FEED, candidates);
  return candidates.filter((_, i) => found[i] !== undefined);
}

/** The cached tab list of a feed (GET /boards/{id}/metadata) and when it was fetched. */
export type TabsRecord = {
  id: string;
  tabs: CategoryTabInfo[];
  fetched_at: number;
  /** The feed's mirrored sequence number when fetched. */
  seq: number | null;
};

export type WriteOutcome = { keys: string[]; meta: BoardMirrorMeta } | 'stale' | 'ended';

/**
 * One write to a feed's mirror, in one transaction with its meta: entries upserted (or
 * deleted when `removed`), the mirrored counts moved by what really changed, `update` applied
 * to the meta. Refused ('stale') when the feed's mirror is not generation `gen` any more (it
 * was reset), or ('ended') when the session that fetched the entries has ended. With no meta
 * and `create`, the meta is created.
 */
export async function writeFeed(
  ctx: Ctx,
  owner: Owner,
  feed: string,
  options: {
    gen: string | null;
    entries: BoardEntry[];
    /** Given the count moves by countKey. */
    update?: (meta: BoardMirrorMeta, delta: Record<string, number>) => BoardMirrorMeta;
    create?: BoardMirrorMeta;
  },
): Promise<WriteOutcome> {
  const mirror = await ctx.mirror;
  return mirror.transact([FEED, 'kv'], async (tx) => {
    if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return 'ended';
    let meta = await tx.get<BoardMirrorMeta>(FEED, metaKey(feed));
    if (!meta) {
      if (!options.create) return 'stale';
      meta = options.create;
    } else if (options.gen !== null && meta.gen !== options.gen) return 'stale';
    const records = options.entries.map((e) => ({ removed: e.removed, record: toRecord(feed, e) }));
    const now = await heldEntries(
      tx,
      records.map(({ record }) => record),
    );
    /** Moves of the mirrored counts, by countKey. */
    const delta: Record<string, number> = {};
    const move = (entry: EntryRecord, by: number) => {
      for (const source of [null, entry.source]) {
        for (const tab of [null, entry.tab]) {
          const key = countKey(source, tab);
          delta[key] = (delta[key] ?? 0) + by;
        }
      }
    };
    const keys: string[] = [];
    for (const { removed, record } of records) {
      const old = now.get(record.id);
      if (old) move(old, -1);
      if (!removed) move(record, 1);
      now.set(record.id, removed ? undefined : record);
      tx.put({ store: FEED, key: record.id, value: removed ? undefined : record });
      keys.push(record.id);
    }
    const counts = { ...meta.counts };
    for (const [tab, by] of Object.entries(delta))
      counts[tab] = Math.max(0, (counts[tab] ?? 0) + by);
    const base = { ...meta, counts };
    const next = options.update ? options.update(base, delta) : base;
    tx.put({ store: FEED, key: next.id, value: next });
    return { keys, meta: next };
  });
}

/**
 * What the mirror holds of these entries, by key. A document's time never changes, so every
 * one held sits in the time index between the oldest and the newest of them: one range read
 * (a backfill page of 1000 mostly new entries costs one request, not 1000 gets). A page whose
 * span holds far more than itself (changes across the whole feed) is read key by key.
 */
async function heldEntries(
  tx: MirrorTx<S>,
  records: EntryRecord[],
): Promise<Map<string, EntryRecord | undefined>> {
  const held = new Map<string, EntryRecord | undefined>();
  if (records.length === 0) return held;
  const keys = records.map((r) => r.k_time);
  keys.sort(
    (a, b) => (a[1] as number) - (b[1] as number) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0),
  );
  const limit = 2 * records.length + 100;
  const found = await tx.indexRange<EntryRecord>(
    FEED,
    'time',
    { lower: keys[0], upper: keys[keys.length - 1] },
    limit,
  );
  if (found.length < limit) {
    const wanted = new Set(records.map((r) => r.id));
    for (const entry of found) if (wanted.has(entry.id)) held.set(entry.id, entry);
    for (const r of records) if (!held.has(r.id)) held.set(r.id, undefined);
    return held;
  }
  const each = await Promise.all(records.map((r) => tx.get<EntryRecord>(FEED, r.id)));
  records.forEach((r, i) => held.set(r.id, each[i]));
  return held;
}

/** Deletes a feed's entries and meta (its definition changed, or its mirror is stale). */
export async function clearFeed(ctx: Ctx, owner: Owner, feed: string): Promise<boolean> {
  const mirror = await ctx.mirror;
  return mirror.transact([FEED, 'kv'], async (tx) => {
    if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return false;
    tx.deleteRange(FEED, feedRange(feed));
    tx.put({ store: FEED, key: metaKey(feed), value: undefined });
    return true;
  });
}

export const readMeta = async (ctx: Ctx, feed: string) =>
  (await ctx.mirror).get<BoardMirrorMeta>(FEED, metaKey(feed));

export const newMeta = (
  feed: string,
  gen: string,
  page: { version: number; seq: number },
): BoardMirrorMeta => ({
  id: metaKey(feed),
  board: feed,
  gen,
  version: page.version,
  seq: page.seq,
  started: false,
  next: null,
  boundary: null,
  complete: false,
  server: {},
  counts: {},
});
