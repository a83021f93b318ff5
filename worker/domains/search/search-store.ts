import { dequal } from 'dequal';
import type { CategoryTabInfo } from '../../../contract/documents';
import {
  searchRowId,
  type search,
  type SearchAnswer,
  type SearchParams,
  type SearchResult,
} from '../../../contract/search';
import type { Mirror, MirrorTx, StoreSpec } from '../../mirror';
import type { DomainCtx, StoreOf } from '../../registry';
import type { Owner } from '../../session';
import { ownKey } from '../fresh';

/**
 * The search mirror. 'search_queries' holds one record per search (its contract `searchKey`):
 * the server's answer but the rows (count, tabs, corrected query), which server pages of the
 * answer are mirrored, and when it was fetched. 'search_results' holds the rows, one per
 * [key, rank], read by the `rank` index. An answer that moved (another first page, another
 * count) replaces every row of its search: rows of two answers never mix in one list.
 */

export type S = StoreOf<typeof search>;
/**
 * The search domain's state in a workspace (its `state` in search.ts): the search read last in
 * this workspace and session, which reading again moves nothing (search-window.ts).
 */
export type SearchState = { lastRead: string | null };
export const createSearchState = (): SearchState => ({ lastRead: null });
export type Ctx = DomainCtx<S, SearchState>;
export const QUERIES = 'search_queries' satisfies S;
export const RESULTS = 'search_results' satisfies S;

/** The server's page size the mirror fetches in (a window maps to the pages covering it). */
export const PAGE = 50;
/** Searches kept; older ones (least recently read) go with their rows. */
export const KEPT_SEARCHES = 50;

export type QueryRecord = {
  key: string;
  params: SearchParams;
  count: number;
  count_exact: boolean;
  category_tabs: CategoryTabInfo[];
  corrected_q: string | null;
  searched_q: string;
  /** When the answer's first page was asked for (ms): it is fresh for a while after. */
  fetched_at: number;
  /** The feed mark when it was asked for: the feed moved since when the mark differs. */
  mark: number;
  /** Server pages (of PAGE rows) of this answer the mirror holds. */
  pages: number[];
  /** The rank after the last row, once a page said there is no more. */
  end: number | null;
  /** This answer: a replacement makes a new one, and pages fetched for an old one are dropped. */
  gen: string;
  /** Recency of use (higher: read more recently); eviction drops the lowest. */
  used: number;
};

export type RowRecord = {
  id: string;
  key: string;
  rank: number;
  /** The document (its deeplink), for the read-state lookup. */
  doc: string;
  result: SearchResult;
};

/** Not a search key (keys are JSON arrays): the feed mark, moved by every 'feed' change. */
const MARK_KEY = ownKey('feed');
type MarkRecord = { key: typeof MARK_KEY; mark: number };

export const QUERIES_SPEC: StoreSpec = {
  keyPath: 'key',
  // The mark record has no `used`: the index holds the searches only.
  indexes: { used: { keyPath: 'used' } },
  version: 1,
};
export const RESULTS_SPEC: StoreSpec = {
  keyPath: 'id',
  indexes: { rank: { keyPath: ['key', 'rank'] }, doc: { keyPath: 'doc' } },
  version: 1,
};

/** Every row of a search, by primary key (ids are `${key}\u0000${rank}`). */
const rowsRange = (key: string) => ({ lower: `${key}\u0000`, upper: `${key}\u0000\uffff` });

/** What makes two answers the same besides their rows (tabs only when the page carries them). */
const answerMeta = (a: QueryRecord | SearchAnswer, tabs: boolean) => [
  a.count,
  a.count_exact,
  tabs ? a.category_tabs : null,
  'query_params' in a ? a.query_params.corrected_q : a.corrected_q,
  'query_params' in a ? a.query_params.searched_q : a.searched_q,
];

export const readQuery = async (ctx: Ctx, key: string) =>
  (await ctx.mirror).get<QueryRecord>(QUERIES, key);

export const readMark = async (ctx: Ctx) =>
  (await (await ctx.mirror).get<MarkRecord>(QUERIES, MARK_KEY))?.mark ?? 0;

/** The feed moved: every mirrored search is stale (revalidated when next read). */
export async function markSearchesStale(mirror: Mirror<S>) {
  await mirror.update<MarkRecord>(QUERIES, MARK_KEY, (now) => ({
    key: MARK_KEY,
    mark: (now?.mark ?? 0) + 1,
  }));
}

/** The mirrored rows of a search from rank `from` through `to`, in rank order (holes skipped). */
export async function readRows(ctx: Ctx, key: string, from: number, to: number) {
  if (to < from) return [];
  return (await ctx.mirror).range<RowRecord>(RESULTS, {
    index: 'rank',
    lower: [key, from],
    upper: [key, to],
  });
}

/** The 'search_results' keys of the rows showing these documents (their read state changed). */
export async function searchRowsOfDocs(mirror: Mirror<S>, docs: string[]) {
  const found = await Promise.all(
    docs.map((doc) => mirror.range<RowRecord>(RESULTS, { index: 'doc', lower: doc, upper: doc })),
  );
  return found.flat().map((row) => row.id);
}

export type PageWrite = {
  key: string;
  params: SearchParams;
  answer: SearchAnswer;
  /** The server pages the answer covers (its rows start at `answer.query_params.start_from`). */
  pages: number[];
  /** The answer carries the category tabs (asked with type 'category'); else the held ones stay. */
  tabs: boolean;
  /** The answer this page belongs to; null: whichever is mirrored (a first page always lands). */
  gen: string | null;
  askedAt: number;
  mark: number;
};

/** What a write changed: row keys, and whether the answer moved (new count, tabs, rows). */
export type WriteOutcome = { rows: string[]; moved: boolean; record: QueryRecord } | 'dropped';

const randomGen = () => Math.random().toString(36).slice(2, 12);

/**
 * Writes one server page of a search, in one transaction with its record: the rows are added
 * to the mirrored answer when the answer is the same (same count, tabs and corrected query, and
 * the same rows when the page was held), else the answer is replaced by this page alone. A later
 * page of an answer that was replaced meanwhile is dropped; so is anything once the session
 * that fetched it has ended.
 */
export async function writePage(ctx: Ctx, owner: Owner, w: PageWrite): Promise<WriteOutcome> {
  const mirror = await ctx.mirror;
  return mirror.transact([QUERIES, RESULTS, 'kv'], async (tx) => {
    if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return 'dropped';
    const held = await tx.get<QueryRecord>(QUERIES, w.key);
    if (held && w.gen !== null && held.gen !== w.gen) return 'dropped';
    const start = w.answer.query_params.start_from;
    const rows: RowRecord[] = w.answer.results.map((result, i) => ({
      id: searchRowId(w.key, start + i),
      key: w.key,
      rank: start + i,
      doc: result.deeplink,
      result,
    }));
    const heldRows = held ? await pageRows(tx, w.key, start, rows.length) : [];
    const first = w.pages.includes(0);
    // The same answer: the same count, tabs and query, and the same rows where it held the page.
    const same =
      held !== undefined &&
      dequal(answerMeta(held, w.tabs), answerMeta(w.answer, w.tabs)) &&
      (!w.pages.some((p) => held.pages.includes(p)) || sameRows(heldRows, rows));
    // No more after this page: the list ends after its last row (a page past the end, empty,
    // says only that the end is before it, which the count says too).
    const end = w.answer.has_more || (rows.length === 0 && start > 0) ? null : start + rows.length;
    const changed: string[] = [];
    const put = (row: RowRecord) => {
      const before = heldRows.find((r) => r.id === row.id);
      if (before && dequal(before.result, row.result)) return;
      tx.put({ store: RESULTS, key: row.id, value: row });
      changed.push(row.id);
    };
    let record: QueryRecord;
    if (held && same) {
      rows.forEach(put);
      record = {
        ...held,
        pages: [...new Set([...held.pages, ...w.pages])],
        end: end ?? held.end,
        ...(first ? { fetched_at: w.askedAt, mark: w.mark } : {}),
      };
    } else {
      // A new answer: every row of the old one goes (announced), this page's rows come.
      const old = held
        ? await tx.indexRange<RowRecord>(RESULTS, 'rank', keyBounds(w.key), 1e5)
        : [];
      const kept = new Set(rows.map((r) => r.id));
      tx.deleteRange(RESULTS, rowsRange(w.key));
      for (const row of rows) tx.put({ store: RESULTS, key: row.id, value: row });
      changed.push(...old.filter((r) => !kept.has(r.id)).map((r) => r.id));
      changed.push(...rows.map((r) => r.id));
      record = {
        key: w.key,
        params: w.params,
        count: w.answer.count,
        count_exact: w.answer.count_exact,
        category_tabs: w.tabs ? w.answer.category_tabs : (held?.category_tabs ?? []),
        corrected_q: w.answer.query_params.corrected_q,
        searched_q: w.answer.query_params.searched_q,
        fetched_at: w.askedAt,
        mark: w.mark,
        pages: w.pages,
        end,
        gen: randomGen(),
        // A new search is the most recent one (no other search's touch may evict it first).
        used: held?.used ?? (await mostRecentUse(tx)) + 1,
      };
    }
    tx.put({ store: QUERIES, key: w.key, value: record });
    const moved = held !== undefined && !same;
    // A moved answer changes its list even where no row did (its count, its tabs): say so.
    const first0 = searchRowId(w.key, 0);
    if (moved && !changed.includes(first0)) changed.push(first0);
    return { rows: changed, moved, record };
  });
}

/** The highest `used` of the searches (0 with none). */
async function mostRecentUse(tx: MirrorTx<S>) {
  const all = await tx.indexRange<QueryRecord>(QUERIES, 'used', {}, 1e4);
  return all.length ? all[all.length - 1].used : 0;
}

const keyBounds = (key: string) => ({ lower: [key], upper: [key, []] });

const pageRows = (tx: MirrorTx<S>, key: string, start: number, count: number) =>
  count === 0
    ? Promise.resolve([])
    : tx.indexRange<RowRecord>(
        RESULTS,
        'rank',
        { lower: [key, start], upper: [key, start + count - 1] },
        count,
      );

function sameRows(held: RowRecord[], rows: RowRecord[]) {
  if (held.length !== rows.length) return false;
  return held.every((row, i) => row.id === rows[i].id && dequal(row.result, rows[i].result));
}

/**
 * Marks `key` the most recently read search and drops the least recently read ones beyond
 * KEPT_SEARCHES, with their rows (answers the keys dropped).
 */
export async function touchSearch(ctx: Ctx, owner: Owner, key: string): Promise<string[]> {
  const mirror = await ctx.mirror;
  return mirror.transact([QUERIES, RESULTS, 'kv'], async (tx) => {
    if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return [];
    // Oldest first; a few more than kept at most (one per search started since the last touch).
    const all = await tx.indexRange<QueryRecord>(QUERIES, 'used', {}, 1e4);
    const record = all.find((r) => r.key === key);
    if (!record) return [];
    const top = all[all.length - 1];
    if (top.key !== key) {
      tx.put({ store: QUERIES, key, value: { ...record, used: top.used + 1 } });
    }
    const others = all.filter((r) => r.key !== key);
    const dropped = others.slice(0, Math.max(0, others.length - (KEPT_SEARCHES - 1)));
    for (const gone of dropped) {
      tx.put({ store: QUERIES, key: gone.key });
      tx.deleteRange(RESULTS, rowsRange(gone.key));
    }
    return dropped.map((r) => r.key);
  });
}
