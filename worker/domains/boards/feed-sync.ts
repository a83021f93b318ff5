import type { BoardDocs, BoardDocsQuery, BoardEntry } from '../../../contract/boards';
import { sessionChanged } from '../../api-errors';
import type { Owner } from '../../session';
import {
  clearFeed,
  countKey,
  FEED,
  newMeta,
  readMeta,
  writeFeed,
  type Ctx,
  type BoardMirrorMeta,
  type WriteOutcome,
  withinPrefix,
} from './feed-store';

/**
 * Keeping a feed's mirror current. Backfill: from the newest entry down, `before` pages of
 * BACKFILL_PAGE, each landing with the prefix's new end, announced to the tabs as it lands.
 * Follow: the entries added or removed after the mirror's sequence number (`after_seq`), on
 * every 'feed' change and on 'feed.refresh'. A definition version that differs from the
 * mirror's (a 'board' change, or any page) clears the feed and starts it over.
 */

export const BACKFILL_PAGE = 2500;
const FOLLOW_PAGE = 1000;

type FeedState = {
  backfill: Promise<void> | null;
  follow: Promise<void> | null;
  followAgain: boolean;
  /** Documents an after_seq page removed: a backfill page fetched earlier must not bring them back. */
  removed: Set<string>;
  /** This worker has followed the feed since it started (it may have missed changes before). */
  caughtUp: boolean;
};

/** The feeds' state in a workspace (its `state` in boards.ts): each feed's, by session and feed. */
export type FeedStates = Map<string, FeedState>;
export const createFeedStates = (): FeedStates => new Map();

/** The feed's in-memory state in this workspace and session. */
export function feedState(ctx: Ctx, owner: Owner, feed: string): FeedState {
  const byFeed = ctx.state;
  const id = `${owner.session_id}\u0000${feed}`;
  let state = byFeed.get(id);
  if (!state) {
    state = {
      backfill: null,
      follow: null,
      followAgain: false,
      removed: new Set(),
      caughtUp: false,
    };
    byFeed.set(id, state);
  }
  return state;
}

export const currentOwner = (ctx: Ctx) => {
  const owner = ctx.owner();
  if (!owner) throw sessionChanged('feed');
  return owner;
};

export const fetchDocs = (ctx: Ctx, feed: string, query: Partial<BoardDocsQuery>, bg = true) =>
  ctx.client
    .call('boardDocs', {
      params: { id: feed },
      query: { sort: 'latest', num_docs: BACKFILL_PAGE, ...query } as BoardDocsQuery,
      background: bg,
      signal: ctx.signal(),
      variant: ctx.variant(),
    })
    .then((answer) => answer.results);

const randomGen = () => Math.random().toString(36).slice(2, 12);

/** The meta of a feed whose first page is `page` (its top page, newest first, when `top`). */
export function startMeta(feed: string, page: BoardDocs['results'], top: boolean): BoardMirrorMeta {
  const meta = newMeta(feed, randomGen(), page);
  meta.server = { '*': page.count };
  return top ? advance(meta, page) : meta;
}

/** The meta after a backfill page: the prefix reaches the page's last entry. */
function advance(meta: BoardMirrorMeta, page: BoardDocs['results']): BoardMirrorMeta {
  const last = page.documents[page.documents.length - 1];
  const complete = !page.has_more || page.next === null;
  // Another worker instance went further meanwhile: the prefix never moves back up.
  const behind = last && meta.started && withinPrefix(meta, last.unix, last.doc_id);
  if (meta.complete || (behind && !complete)) return meta;
  return {
    ...meta,
    started: true,
    next: page.next,
    boundary: last ? ([last.unix, last.doc_id] as [number, string]) : meta.boundary,
    complete,
    server: { ...meta.server, '*': page.count },
  };
}

const announce = (ctx: Ctx, outcome: WriteOutcome) => {
  if (typeof outcome === 'object' && outcome.keys.length) ctx.reads.announce(FEED, outcome.keys);
};

/** Clears the feed's mirror; started again at once when `restart`. */
export async function resetFeed(ctx: Ctx, owner: Owner, feed: string, restart: boolean) {
  if (!(await clearFeed(ctx, owner, feed))) return;
  const state = feedState(ctx, owner, feed);
  state.removed.clear();
  state.caughtUp = true;
  ctx.reads.announce(FEED, null);
  if (restart) ensureBackfill(ctx, owner, feed);
}

/** A page fetched ahead: the next page is on its way while this one is written. */
type Ahead = { before: string; page: Promise<BoardDocs['results']> } | null;

/** Backfills until the prefix is the whole feed (one run per feed at a time). */
export function ensureBackfill(ctx: Ctx, owner: Owner, feed: string) {
  const state = feedState(ctx, owner, feed);
  if (state.backfill) return state.backfill;
  const run = (async () => {
    const ahead: { next: Ahead } = { next: null };
    while (await backfillPage(ctx, owner, feed, state, ahead));
  })().finally(() => {
    state.backfill = null;
  });
  state.backfill = run;
  ctx.track(run.catch(() => {}));
  return run;
}

/**
 * One backfill page: the feed's top page when the mirror does not hold it yet (creating its
 * meta), else the page after the prefix. With `ahead`, the page after it is fetched while this
 * one is written. Answers whether there is more to do.
 */
export async function backfillPage(
  ctx: Ctx,
  owner: Owner,
  feed: string,
  state: FeedState,
  ahead: { next: Ahead } = { next: null },
) {
  const meta = await readMeta(ctx, feed);
  if (meta?.complete) return false;
  const before = meta?.started ? (meta.next ?? undefined) : undefined;
  const early = ahead.next;
  ahead.next = null;
  const page = await (early && early.before === before
    ? early.page
    : fetchDocs(ctx, feed, before === undefined ? {} : { before }));
  if (meta && page.version !== meta.version) {
    await resetFeed(ctx, owner, feed, false);
    return true;
  }
  if (page.has_more && page.next) {
    const next = fetchDocs(ctx, feed, { before: page.next });
    next.catch(() => {}); // Its failure is met when (if) it is used.
    ahead.next = { before: page.next, page: next };
  }
  const kept = page.documents.filter((d) => !d.removed && !state.removed.has(d.doc_id));
  const outcome = await writeFeed(ctx, owner, feed, {
    gen: meta?.gen ?? null,
    entries: kept,
    create: meta ? undefined : startMeta(feed, page, true),
    update: (m) => (meta ? advance(m, page) : m),
  });
  if (outcome === 'ended') return false;
  // Reset meanwhile: go on with the feed's new mirror (or start it).
  if (outcome === 'stale') return true;
  announce(ctx, outcome);
  if (outcome.meta.complete) state.removed.clear();
  return !outcome.meta.complete;
}

/** Pulls the entries changed after the mirror's sequence number (coalescing calls). */
export function follow(ctx: Ctx, owner: Owner, feed: string): Promise<void> {
  const state = feedState(ctx, owner, feed);
  if (state.follow) {
    state.followAgain = true;
    return state.follow;
  }
  const run = (async () => {
    do {
      state.followAgain = false;
      await followOnce(ctx, owner, feed, state);
    } while (state.followAgain);
  })().finally(() => {
    state.follow = null;
  });
  state.follow = run;
  return run;
}

async function followOnce(ctx: Ctx, owner: Owner, feed: string, state: FeedState) {
  for (;;) {
    const meta = await readMeta(ctx, feed);
    if (!meta) return;
    const page = await fetchDocs(ctx, feed, { after_seq: meta.seq, num_docs: FOLLOW_PAGE });
    if (page.version !== meta.version) {
      await resetFeed(ctx, owner, feed, true);
      return;
    }
    for (const d of page.documents) if (d.removed) state.removed.add(d.doc_id);
    const last = page.documents.reduce(
      (max, d: BoardEntry) => Math.max(max, d.entry_seq),
      meta.seq,
    );
    // With more to come, `seq` may be the feed's newest: go on from this page's last entry.
    const seq = page.has_more ? last : Math.max(last, page.seq);
    const outcome = await writeFeed(ctx, owner, feed, {
      gen: meta.gen,
      entries: page.documents,
      update: (m, delta) => {
        const server: Record<string, number> = { ...m.server, '*': page.count };
        // Per-tab server counts move as the mirror's did: these changes are new to both.
        for (const tab of Object.keys(server)) {
          const by = delta[countKey(null, tab)];
          if (tab !== '*' && by) server[tab] = Math.max(0, server[tab] + by);
        }
        return { ...m, seq: Math.max(m.seq, seq), server };
      },
    });
    if (outcome === 'ended' || outcome === 'stale') return;
    state.caughtUp = true;
    announce(ctx, outcome);
    if (!page.has_more || page.documents.length === 0) return;
  }
}

/** A 'feed' change: pull the feed's new entries if the mirror holds it and is behind. */
export async function onFeedChange(ctx: Ctx, feed: string, seq: number) {
  const owner = ctx.owner();
  if (!owner) return;
  const meta = await readMeta(ctx, feed);
  if (!meta || meta.seq >= seq) return;
  await follow(ctx, owner, feed);
}

/** A 'board' change: a new definition version starts the feed's mirror over. */
export async function onBoardVersion(ctx: Ctx, feed: string, version: number) {
  const owner = ctx.owner();
  if (!owner) return;
  const meta = await readMeta(ctx, feed);
  if (meta && meta.version !== version) await resetFeed(ctx, owner, feed, true);
}
