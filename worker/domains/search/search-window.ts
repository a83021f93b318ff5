import {
  MAX_SEARCH_OFFSET,
  MAX_SEARCH_PAGE,
  searchKey,
  type SearchParams,
  type SearchWindow,
} from '../../../contract/search';
import { isNetworkError } from '../../api-client';
import { sessionChanged } from '../../api-errors';
import type { Owner } from '../../session';
import { fetchPage } from './search-fetch';
import {
  PAGE,
  readMark,
  readQuery,
  readRows,
  touchSearch,
  type Ctx,
  type QueryRecord,
} from './search-store';

/**
 * 'search.window': a window of a search's results. A search the mirror holds answers from it
 * at once; when the mirrored answer is not fresh (older than SEARCH_FRESH_MS, or the feed moved
 * since it was fetched) the answer says `stale` and the first page is fetched again in the
 * background, replacing the rows (a 'changed' event on 'search_results') when the answer
 * moved. Rows the mirror lacks are fetched in server pages of PAGE rows, the window waiting.
 */

/** 002 §7: lists are fresh for 15 s; a search read again later is revalidated. */
export const SEARCH_FRESH_MS = 15_000;
/** A window refetches its pages at most this often when answers are replaced meanwhile. */
const ATTEMPTS = 3;

export type WindowInput = { params: SearchParams; offset: number; count: number };

const currentOwner = (ctx: Ctx) => {
  const owner = ctx.owner();
  if (!owner) throw sessionChanged('search');
  return owner;
};

/** Rows the server can page to: its count, capped where paging stops, or the end seen. */
const reachableOf = (r: QueryRecord) =>
  Math.min(r.count, MAX_SEARCH_OFFSET + MAX_SEARCH_PAGE, r.end ?? Infinity);

/** The server pages covering [offset, offset + count), within `reachable`. */
function pagesOf(offset: number, count: number, reachable: number) {
  const last = Math.min(offset + count, reachable) - 1;
  const pages: number[] = [];
  for (let p = Math.floor(offset / PAGE); p * PAGE <= last; p += 1) pages.push(p);
  return pages;
}

/** The pages of the window the mirror does not hold (the first window: the pages it covers). */
const missingPages = (record: QueryRecord | undefined, offset: number, count: number) =>
  record
    ? pagesOf(offset, count, reachableOf(record)).filter((p) => !record.pages.includes(p))
    : pagesOf(offset, count, MAX_SEARCH_OFFSET + MAX_SEARCH_PAGE);

const isStale = (ctx: Ctx, record: QueryRecord, mark: number) =>
  record.mark !== mark || ctx.clock.now() - record.fetched_at >= SEARCH_FRESH_MS;

/** The first page again, in the background (shared with any fetch of it under way). */
function revalidate(ctx: Ctx, key: string, params: SearchParams) {
  ctx.track(
    fetchPage(ctx, key, params, 0, { gen: null, background: true }).catch(() => {
      // Offline, or signed out meanwhile: the mirrored answer stands.
    }),
  );
}

async function touch(ctx: Ctx, owner: Owner, key: string) {
  const id = `${owner.session_id}\u0000${key}`;
  if (ctx.state.lastRead === id) return;
  await touchSearch(ctx, owner, key);
  ctx.state.lastRead = id;
}

/** The window from the mirror, rows joined with their read state. */
async function fromMirror(
  ctx: Ctx,
  record: QueryRecord,
  window: { offset: number; count: number; stale: boolean },
): Promise<SearchWindow> {
  const { offset, count } = window;
  const reachable = reachableOf(record);
  const rows = await readRows(ctx, record.key, offset, Math.min(offset + count, reachable) - 1);
  const read = await ctx.ask(
    'read.states',
    rows.map((r) => r.doc),
  );
  return {
    key: record.key,
    offset,
    rows: rows.map((r, i) => ({ ...r.result, read: read[i] })),
    count: record.count,
    count_exact: record.count_exact,
    reachable,
    category_tabs: record.category_tabs,
    corrected_q: record.corrected_q,
    searched_q: record.searched_q,
    stale: window.stale,
    fetched_at: record.fetched_at,
  };
}

export async function readSearchWindow(ctx: Ctx, input: WindowInput): Promise<SearchWindow> {
  const owner = currentOwner(ctx);
  const { params, offset, count } = input;
  const key = searchKey(params);
  void ctx.ask('read.ensureList', false);
  let record = await readQuery(ctx, key);
  let stale = false;
  if (record && isStale(ctx, record, await readMark(ctx))) {
    stale = true;
    revalidate(ctx, key, params);
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const missing = missingPages(record, offset, count);
    if (missing.length === 0) break;
    const gen = record?.gen ?? null;
    try {
      // One request per missing page (shared with any window or revalidation fetching it).
      await Promise.all(
        missing.map((p) => fetchPage(ctx, key, params, p, { gen, background: false })),
      );
    } catch (error) {
      // Offline: what the mirror holds beats nothing.
      if (record && isNetworkError(error)) break;
      throw error;
    }
    // A page may have replaced the answer (it moved), or been dropped (it was replaced).
    record = (await readQuery(ctx, key)) ?? record;
  }
  if (!record) throw sessionChanged('search.window');
  await touch(ctx, owner, key);
  return fromMirror(ctx, record, { offset, count, stale });
}

/** 'search.refresh': the first page fetched now, its window answered. */
export async function refreshSearch(ctx: Ctx, params: SearchParams): Promise<SearchWindow> {
  const owner = currentOwner(ctx);
  const key = searchKey(params);
  await fetchPage(ctx, key, params, 0, { gen: null, background: false });
  const record = await readQuery(ctx, key);
  if (!record) throw sessionChanged('search.refresh');
  await touch(ctx, owner, key);
  return fromMirror(ctx, record, { offset: 0, count: PAGE, stale: false });
}
