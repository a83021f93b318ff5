import { NOTIFICATIONS_PAGE_SIZE as PAGE } from '../../contract/constants';
import type { notifications } from '../../contract/notifications';
import {
  NOTIFICATIONS_LIST_KEY as LIST_KEY,
  type Notification,
  type NotificationsPage,
  type NotificationsWindow,
} from '../../contract/notifications';
import type { Variant } from '../../contract/tabs';
import type { Mirror, PatchItem } from '../mirror';
import { sessionChanged } from '../api-errors';
import type { DomainContext, StoreOf } from '../registry';
import type { Owner } from '../session';

/**
 * The notifications list in the mirror: a prefix of the server's list (pages 1..n, newest
 * first) kept as one record per notification, read by windows over the newest-first index,
 * plus one list record with the server's counts. Pages are fetched in order from the first
 * not yet mirrored, so a window never reads past a hole.
 */

export type S = StoreOf<typeof notifications>;
export type Ctx = DomainContext<S>;

export const STORE = 'notifications' satisfies S;
/** [created_at, id]: read backwards, newest first (the server's order). */
export const NEWEST_FIRST = 'newest_first';

/** The list record; it has no created_at, so the newest-first index leaves it out. */
export type ListRecord = {
  id: typeof LIST_KEY;
  /** The server's counts, moved by the mirror's own changes until the next answer. */
  total: number;
  unread: number;
  /** Server pages 1..pages are mirrored. */
  pages: number;
  /** The oldest mirrored row's [created_at, id]: a row older than it is not mirrored yet. */
  oldest: [string, string] | null;
};

type SortKey = [string, string];
const sortKey = (n: Notification): SortKey => [n.created_at, n.id];
const olderThan = (a: SortKey, b: SortKey) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
const last = (rows: Notification[]) => (rows.length ? sortKey(rows[rows.length - 1]) : null);

export const readList = (mirror: Mirror<S>) => mirror.get<ListRecord>(STORE, LIST_KEY);

/** Every row is mirrored, or `row` sorts within the mirrored part. */
export const mirrors = (list: ListRecord, row: Notification) =>
  list.pages * PAGE >= list.total ||
  (list.oldest !== null && !olderThan(sortKey(row), list.oldest));

/**
 * Fetches server page `page` and writes it with the counts. When the server's total moved,
 * rows were added or removed and what the mirror holds beyond this page may sit at the wrong
 * positions: only page 1 is kept then, and later pages are fetched again as windows ask.
 */
async function fetchPage(ctx: Ctx, owner: Owner, page: number, variant: Variant, bg: boolean) {
  const answer = await ctx.client.call('notifications', {
    query: { page },
    variant,
    background: bg,
    signal: ctx.signal(),
  });
  const mirror = await ctx.mirror;
  const list = await readList(mirror);
  const rows: PatchItem<S>[] = answer.results.map((n) => ({ store: STORE, key: n.id, value: n }));
  let next: Pick<ListRecord, 'pages' | 'oldest'>;
  let items: PatchItem<S>[];
  if (!list || list.total !== answer.total) {
    const keep = new Set(page === 1 ? answer.results.map((n) => n.id) : []);
    keep.add(LIST_KEY);
    // Reads every key once: a shift is rare, and the mirror holds only what was scrolled to.
    const stale = (await mirror.keys(STORE)).filter((key) => !keep.has(key));
    items = [
      ...stale.map((key): PatchItem<S> => ({ store: STORE, key })),
      ...(page === 1 ? rows : []),
    ];
    next = page === 1 ? { pages: 1, oldest: last(answer.results) } : { pages: 0, oldest: null };
  } else if (page <= list.pages + 1) {
    items = rows;
    // The last mirrored page sets where the mirrored part ends.
    const oldest = page >= list.pages ? last(answer.results) : list.oldest;
    next = { pages: Math.max(list.pages, page), oldest };
  } else {
    return; // Past a hole (never asked for: pages load in order).
  }
  const record: ListRecord = { id: LIST_KEY, total: answer.total, unread: answer.unread, ...next };
  items.push({ store: STORE, key: LIST_KEY, value: record });
  // A first answer goes to the caller waiting for it; any later one is news for the tabs.
  if (!(await ctx.reads.store(items, owner, list !== undefined)))
    throw sessionChanged('notifications');
}

/** Page `page` fetched again (or for the first time), shared by concurrent readers. */
export const loadPage = (ctx: Ctx, page: number, variant: Variant, background: boolean) =>
  ctx.reads.once(`notifications.page.${page}`, (owner) =>
    fetchPage(ctx, owner, page, variant, background),
  );

/** Fetches pages in order, from the first not mirrored, until `page` is or the list ends. */
export async function loadThrough(ctx: Ctx, page: number, variant: Variant, background: boolean) {
  const mirror = await ctx.mirror;
  // A list that keeps moving under us is fetched at most this often per call.
  for (let round = 0; round < page + 3; round += 1) {
    const list = await readList(mirror);
    const loaded = list?.pages ?? 0;
    if (loaded >= page || (list && loaded * PAGE >= list.total)) return;
    await loadPage(ctx, loaded + 1, variant, background);
  }
}

/** Rows from `offset` in the server's order, from the mirror only. */
const rowsAt = async (mirror: Mirror<S>, offset: number, count: number) =>
  (
    await mirror.window<Notification>(STORE, {
      index: NEWEST_FIRST,
      direction: 'prev',
      offset,
      count,
    })
  ).rows;

/**
 * A window of the list, answered from the mirror at once. With nothing mirrored it waits for
 * page 1 (the counts); rows the mirror does not hold yet are fetched in the background (page
 * by page, in order) and announced as they land. A window at the top revalidates page 1.
 */
export async function readWindow(
  ctx: Ctx,
  offset: number,
  count: number,
  variant: Variant,
): Promise<NotificationsWindow> {
  const mirror = await ctx.mirror;
  let list = await readList(mirror);
  if (!list) {
    await loadThrough(ctx, 1, variant, false);
    list = await readList(mirror);
    if (!list) throw sessionChanged('notifications');
  } else if (offset === 0) {
    ctx.track(loadPage(ctx, 1, variant, true).catch(() => {}));
  }
  const rows = await rowsAt(mirror, offset, count);
  const end = Math.min(offset + count, list.total);
  if (offset + rows.length < end) {
    ctx.track(loadThrough(ctx, Math.ceil(end / PAGE), variant, true).catch(() => {}));
  }
  return { offset, rows, total: list.total, unread: list.unread };
}

/** A server page as the mirror holds it (the 'notifications.page' op, for the CLI). */
export async function readPage(
  ctx: Ctx,
  page: number,
  variant: Variant,
): Promise<NotificationsPage> {
  const mirror = await ctx.mirror;
  const list = await readList(mirror);
  if (list && page <= list.pages) {
    ctx.track(loadPage(ctx, page, variant, true).catch(() => {}));
  } else {
    await loadThrough(ctx, page, variant, false);
  }
  const now = await readList(mirror);
  if (!now) throw sessionChanged('notifications');
  const results = await rowsAt(mirror, (page - 1) * PAGE, PAGE);
  return { results, page, page_size: PAGE, total: now.total, unread: now.unread };
}
