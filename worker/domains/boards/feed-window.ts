import type { BoardSort } from '../../../contract/boards';
import { FEED_TABS, type CategoryTabInfo, type ResultCard } from '../../../contract/documents';
import { isNetworkError } from '../../api-client';
import { sessionChanged } from '../../api-errors';
import type { Owner } from '../../session';
import {
  countKey,
  FEED,
  isTimeSort,
  metaKey,
  readMeta,
  tabsKey,
  toRecord,
  windowQuery,
  withinPrefix,
  writeFeed,
  type Ctx,
  type EntryRecord,
  type BoardMirrorMeta,
  type TabsRecord,
} from './feed-store';
import { currentOwner, ensureBackfill, feedState, fetchDocs, follow, startMeta } from './feed-sync';

/**
 * 'feed.window': a window of a feed in any sort and tab, from the mirror's indexes. The first
 * window of a feed the mirror does not hold yet is the server's page for it (first paint),
 * after which the mirror backfills in the background; until the mirror is complete, a window
 * it cannot answer exactly (past the newest-first prefix, or in another order) is the server's
 * page too, and the total is the server's count.
 */

export type WindowInput = {
  board: string;
  /** Only this source's documents (its key), or null for every source of the feed. */
  source?: string | null;
  tab: string | null;
  sort: BoardSort;
  offset: number;
  count: number;
};
export type BoardEntryRow = ResultCard & { read: boolean };
export type BoardEntryWindow = {
  offset: number;
  rows: BoardEntryRow[];
  total: number;
  complete: boolean;
};

/** The tab list is fetched again after this (002 §7: feeds fresh for 15 s). */
const TABS_FRESH_MS = 15_000;
/** ...and after this once the feed's entries have moved since. */
const TABS_MOVED_MS = 1_000;

const withRead = async (ctx: Ctx, cards: ResultCard[]): Promise<BoardEntryRow[]> => {
  const read = await ctx.ask(
    'read.states',
    cards.map((c) => c.doc_id),
  );
  return cards.map((card, i) => ({ ...card, read: read[i] }));
};

/** Follows the feed once per worker (it may have missed changes), and backfills the rest. */
function keepCurrent(ctx: Ctx, owner: Owner, meta: BoardMirrorMeta) {
  const state = feedState(ctx, owner, meta.board);
  if (!state.caughtUp && !state.follow) ctx.track(follow(ctx, owner, meta.board).catch(() => {}));
  if (!meta.complete) void ensureBackfill(ctx, owner, meta.board);
}

/** The server's page for exactly this window (the tab's user is waiting: not background). */
const windowPage = (ctx: Ctx, input: WindowInput) =>
  fetchDocs(
    ctx,
    input.board,
    {
      num_docs: input.count,
      start_from: input.offset,
      sort: input.sort,
      ...(input.tab ? { tab: input.tab } : {}),
      ...(input.source ? { source: input.source } : {}),
    },
    false,
  );

/** The feed's first window, from the server, kept as the start of its mirror. */
async function firstWindow(ctx: Ctx, owner: Owner, input: WindowInput): Promise<BoardEntryWindow> {
  const { board, tab, sort, offset, source = null } = input;
  const page = await windowPage(ctx, input);
  const top = offset === 0 && tab === null && sort === 'latest' && source === null;
  const create = startMeta(board, page, top);
  // The page's count is the feed's only when neither a tab nor a source narrowed it.
  if (tab || source) create.server = source ? {} : { [tab!]: page.count };
  const kept = page.documents.filter((d) => !d.removed);
  const outcome = await writeFeed(ctx, owner, board, { gen: null, entries: kept, create });
  if (outcome === 'ended') throw sessionChanged('feed.window');
  feedState(ctx, owner, board).caughtUp = true;
  void ensureBackfill(ctx, owner, board);
  const complete = typeof outcome === 'object' && outcome.meta.complete;
  const cards = kept.map((d) => toRecord(board, d).card);
  return { offset, rows: await withRead(ctx, cards), total: page.count, complete };
}

/** The total of the window's list: the mirror's count once complete, else the server's. */
async function totalOf(ctx: Ctx, owner: Owner, meta: BoardMirrorMeta, input: WindowInput) {
  const { tab } = input;
  const mirrored = meta.counts[countKey(null, tab)] ?? 0;
  if (meta.complete) return mirrored;
  const key = tab ?? '*';
  const known = meta.server[key];
  if (known !== undefined) return known;
  const page = await fetchDocs(ctx, meta.board, { num_docs: 0, tab: tab ?? undefined }, false);
  await writeFeed(ctx, owner, meta.board, {
    gen: meta.gen,
    entries: [],
    update: (m) => ({ ...m, server: { ...m.server, [key]: page.count } }),
  });
  return page.count;
}

/** Whether the mirror's rows are exactly the feed's rows at these positions. */
function covered(meta: BoardMirrorMeta, input: WindowInput, rows: EntryRecord[], total: number) {
  if (meta.complete) return true;
  if (input.sort !== 'latest') return false;
  const last = rows[rows.length - 1];
  if (last && !withinPrefix(meta, last.unix, last.doc)) return false;
  if (rows.length === input.count) return true;
  // Fewer rows than asked: the end of the list, if the server's count says so.
  return input.offset + rows.length >= total;
}

/**
 * The server's page for a window the mirror does not answer: not mirrored yet, or in an order
 * the mirror does not index (company, category), or one source's view. Its entries are kept
 * for later time-ordered windows.
 */
async function serverWindow(ctx: Ctx, owner: Owner, meta: BoardMirrorMeta, input: WindowInput) {
  const { board, tab, offset, source = null } = input;
  const page = await windowPage(ctx, input);
  const removed = feedState(ctx, owner, board).removed;
  const kept = page.documents.filter((d) => !d.removed && !removed.has(d.doc_id));
  // The page's entries are the feed's: kept (without moving the prefix) for later windows.
  await writeFeed(ctx, owner, board, {
    gen: meta.gen,
    entries: kept,
    update: (m) =>
      source === null ? { ...m, server: { ...m.server, [tab ?? '*']: page.count } } : m,
  });
  const cards = kept.map((d) => toRecord(board, d).card);
  return { offset, rows: await withRead(ctx, cards), total: page.count, complete: false };
}

/** Entries read per step of an offline walk. */
const WALK_BLOCK = 500;

/**
 * Offline, a window the mirror has no index for (one source's view, a company or category
 * order): the feed's time order (the tab's), filtered to the source, walked in blocks up to the
 * window's end. Only an outage pays for the walk; the order is the time order asked for, else
 * newest first, and the total is what the mirror holds of the view.
 */
async function walkedFromMirror(ctx: Ctx, meta: BoardMirrorMeta, input: WindowInput) {
  const { board, tab, offset, count, source = null } = input;
  const sort = isTimeSort(input.sort) ? input.sort : 'latest';
  const mirror = await ctx.mirror;
  const end = offset + count;
  const matched: ResultCard[] = [];
  let exhausted = false;
  for (let at = 0; matched.length < end; at += WALK_BLOCK) {
    const query = windowQuery(board, { tab, sort }, at, WALK_BLOCK);
    const { rows } = await mirror.window<EntryRecord>(FEED, query);
    for (const row of rows) if (source === null || row.source === source) matched.push(row.card);
    if (rows.length < WALK_BLOCK) {
      exhausted = true;
      break;
    }
  }
  const held = exhausted ? matched.length : (meta.counts[countKey(source, tab)] ?? matched.length);
  return {
    offset,
    rows: await withRead(ctx, matched.slice(offset, end)),
    total: Math.max(held, Math.min(matched.length, end)),
    complete: false,
  };
}

export async function readFeedWindow(ctx: Ctx, input: WindowInput): Promise<BoardEntryWindow> {
  const owner = currentOwner(ctx);
  const { board, source = null, offset, count, sort } = input;
  void ctx.ask('read.ensureList', false);
  const meta = await readMeta(ctx, board);
  if (!meta) return firstWindow(ctx, owner, input);
  keepCurrent(ctx, owner, meta);
  if (source !== null || !isTimeSort(sort)) {
    try {
      return await serverWindow(ctx, owner, meta, input);
    } catch (error) {
      // Offline: the mirror's documents of the view, newest first, rather than an error.
      if (isNetworkError(error)) return walkedFromMirror(ctx, meta, input);
      throw error;
    }
  }
  const mirror = await ctx.mirror;
  const query = windowQuery(board, { tab: input.tab, sort }, offset, count);
  // Complete, the mirror's count is exact (kept with the rows): windows near the end read back.
  if (meta.complete) query.total = meta.counts[countKey(null, input.tab)] ?? 0;
  const { rows } = await mirror.window<EntryRecord>(FEED, query);
  let total: number;
  try {
    total = await totalOf(ctx, owner, meta, input);
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    total = meta.counts[countKey(null, input.tab)] ?? 0;
  }
  const cards = rows.map((r) => r.card);
  const fromMirror = async () => ({
    offset,
    rows: await withRead(ctx, cards),
    total: Math.max(total, offset + rows.length),
    complete: meta.complete,
  });
  if (covered(meta, input, rows, total)) return fromMirror();
  try {
    return await serverWindow(ctx, owner, meta, input);
  } catch (error) {
    // Offline: what the mirror holds beats nothing.
    if (isNetworkError(error)) return fromMirror();
    throw error;
  }
}

/** 'feed.refresh': the feed's new entries now; answers its total. */
export async function refreshFeed(ctx: Ctx, board: string) {
  const owner = currentOwner(ctx);
  const meta = await readMeta(ctx, board);
  if (!meta) {
    const top = { board, tab: null, sort: 'latest' as const, offset: 0, count: 50 };
    const first = await firstWindow(ctx, owner, top);
    return { total: first.total };
  }
  await follow(ctx, owner, board);
  const now = (await readMeta(ctx, board)) ?? meta;
  return { total: now.complete ? (now.counts[countKey(null, null)] ?? 0) : (now.server['*'] ?? 0) };
}

/**
 * 'feed.tabs': the server's tabs (fresh 15 s), with the mirror's counts once complete. A
 * source's view counts what the mirror holds of it (the server does not count per source).
 */
export async function feedTabs(
  ctx: Ctx,
  board: string,
  source: string | null,
): Promise<CategoryTabInfo[]> {
  const owner = currentOwner(ctx);
  const mirror = await ctx.mirror;
  let record = await mirror.get<TabsRecord>(FEED, tabsKey(board));
  const meta = await mirror.get<BoardMirrorMeta>(FEED, metaKey(board));
  const age = record ? ctx.clock.now() - record.fetched_at : Infinity;
  // Counts are fresh for 15 s, and fetched again sooner once new entries have landed (a newly
  // followed source's first documents must not sit under "0").
  const moved = record !== undefined && meta !== undefined && record.seq !== meta.seq;
  if (age >= TABS_FRESH_MS || (moved && age >= TABS_MOVED_MS)) {
    try {
      const answer = await ctx.client.call('boardMetadata', {
        params: { id: board },
        signal: ctx.signal(),
        variant: ctx.variant(),
      });
      record = {
        id: tabsKey(board),
        tabs: answer.category_tabs,
        fetched_at: ctx.clock.now(),
        seq: meta?.seq ?? null,
      };
      await ctx.reads.store([{ store: FEED, key: record.id, value: record }], owner, false);
    } catch (error) {
      // Offline with no counts of the server's kept: the mirror's own counts (below) rather
      // than no tabs, which a tab would show as "All 0" beside the documents it reads.
      if (!isNetworkError(error) || (!record && !meta)) throw error;
    }
  }
  const count = (tab: string) => meta?.counts[countKey(source, tab)] ?? 0;
  if (!record) {
    if (!meta) throw sessionChanged('feed.tabs');
    return FEED_TABS.filter((tab) => count(tab.key) > 0).map((tab) => ({
      key: tab.key,
      label: tab.label,
      data: count(tab.key),
      icon: tab.key,
    }));
  }
  if (source === null && !meta?.complete) return record.tabs;
  const counted = record.tabs.map((t) => ({ ...t, data: count(t.key) }));
  const listed = new Set(counted.map((t) => t.key));
  for (const tab of FEED_TABS) {
    if (!listed.has(tab.key) && count(tab.key) > 0) {
      counted.push({ key: tab.key, label: tab.label, data: count(tab.key), icon: tab.key });
    }
  }
  return source === null ? counted : counted.filter((t) => t.data > 0);
}
