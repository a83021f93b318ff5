import { boards, HOME_BOARD, type Board } from '../../../contract/boards';
import type { Variant } from '../../../contract/tabs';
import type { PatchItem } from '../../mirror';
import { sessionChanged } from '../../api-errors';
import { defineWorkerDomain } from '../../registry';
import { FEED_ENTRIES_SPEC, feedKeysOfDocs, type Ctx, type S } from './feed-store';
import {
  createFeedStates,
  currentOwner,
  onBoardVersion,
  onFeedChange,
  resetFeed,
} from './feed-sync';
import { unreadBefore, type UnreadBefore } from './feed-unread';
import { feedTabs, readFeedWindow, refreshFeed } from './feed-window';
import { freshRead, ownKey } from '../fresh';
import { rowsShowingReadState } from '../read-state';

declare module '../../registry' {
  interface DomainOffers {
    /**
     * The unread documents of a board's mirrored feed dated at or before `before` (within a tab
     * and a source), newest first, at most `limit`: what a mark-all-read marks at once.
     */
    'feed.unreadBefore'(input: UnreadBefore, limit: number): Promise<string[]>;
  }
}

const BOARDS = 'boards' satisfies S;
/** Every feed's id (disabled ones too), in the server's order, and when it was fetched. */
const LIST = ownKey('list');
type ListRecord = { ids: string[]; fetched_at: number };

/** 002 §7: the feeds index is fresh for 15 s. */
const LIST_FRESH_MS = 15_000;

/** The change feed names the home feed `home` (or by its server id, `home:<user>`). */
const feedId = (boardId: string) => (boardId.startsWith(`${HOME_BOARD}:`) ? HOME_BOARD : boardId);

const get = async <T>(ctx: Ctx, key: string) => (await ctx.mirror).get<T>(BOARDS, key);

async function listed(ctx: Ctx): Promise<Board[] | undefined> {
  const list = await get<ListRecord>(ctx, LIST);
  if (!list) return undefined;
  const found = await (await ctx.mirror).getMany<Board>(BOARDS, list.ids);
  return found.filter((b): b is Board => b !== undefined);
}

const listRead = (ctx: Ctx, variant: Variant) => ({
  key: 'boards.list',
  read: () => listed(ctx),
  fetchedAt: async () => (await get<ListRecord>(ctx, LIST))?.fetched_at,
  async fetch({ background, signal }: { background: boolean; signal: AbortSignal }) {
    const answer = await ctx.client.call('boards', {
      query: { hidden: 'true' },
      variant,
      background,
      signal,
    });
    const ids = answer.results.map((b) => b.board_id);
    const gone = (await (await ctx.mirror).keys(BOARDS)).filter(
      (key) => !key.startsWith('\u0000') && !ids.includes(key),
    );
    const items: PatchItem<S>[] = gone.map((key) => ({ store: BOARDS, key }));
    for (const b of answer.results) items.push({ store: BOARDS, key: b.board_id, value: b });
    items.push({ store: BOARDS, key: LIST, value: { ids, fetched_at: ctx.clock.now() } });
    return items;
  },
});

/** Writes a feed the server answered with, listed at the end when new. */
async function keepBoard(ctx: Ctx, board: Board) {
  const owner = currentOwner(ctx);
  const list = await get<ListRecord>(ctx, LIST);
  const items: PatchItem<S>[] = [{ store: BOARDS, key: board.board_id, value: board }];
  if (list && !list.ids.includes(board.board_id)) {
    items.push({
      store: BOARDS,
      key: LIST,
      value: { ...list, ids: [...list.ids, board.board_id] },
    });
  }
  if (!(await ctx.reads.store(items, owner))) throw sessionChanged('boards');
  return board;
}

const boardWrite = (board: Board): PatchItem<S> => ({
  store: BOARDS,
  key: board.board_id,
  value: board,
});

/**
 * Feeds (boards): the list and each feed's definition, the builder's calls (preview, choices,
 * AI proposals, suggestions), and each feed's documents as a mirror read by windows
 * (feed-store.ts, feed-sync.ts, feed-window.ts). Editing and enabling are optimistic through
 * the outbox; a definition's new version starts its feed's mirror over.
 */
export const boardsDomain = defineWorkerDomain(boards, {
  state: createFeedStates,
  stores: {
    boards: { keyPath: null, version: 1 },
    feed_entries: FEED_ENTRIES_SPEC,
  },
  reads: {
    async 'boards.list'(ctx, { hidden }, conn) {
      const all = await freshRead(ctx, listRead(ctx, conn.variant), LIST_FRESH_MS);
      return hidden ? all : all.filter((b) => b.enabled);
    },
    async 'boards.get'(ctx, { id }, conn) {
      return ctx.reads.swr({
        key: `boards.get.${id}`,
        read: () => get<Board>(ctx, id),
        fetch: async ({ background, signal }) => [
          boardWrite(
            await ctx.client.call('board', {
              params: { id },
              variant: conn.variant,
              background,
              signal,
            }),
          ),
        ],
      });
    },
    async 'boards.create'(ctx, draft, conn) {
      const board = await ctx.client.call('createBoard', {
        body: draft,
        variant: conn.variant,
        signal: ctx.signal(),
      });
      return keepBoard(ctx, board);
    },
    async 'boards.duplicate'(ctx, { id, board_name }, conn) {
      const board = await ctx.client.call('duplicateBoard', {
        params: { id },
        body: board_name === undefined ? {} : { board_name },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      return keepBoard(ctx, board);
    },
    'boards.preview': (ctx, { definition }, conn) =>
      ctx.client.call('previewBoard', {
        params: { id: 'new' },
        body: { definition },
        variant: conn.variant,
        signal: ctx.signal(),
      }),
    'boards.choices': (ctx, _input, conn) =>
      ctx.client.call('feedChoices', { variant: conn.variant, signal: ctx.signal() }),
    'boards.aiSmarts': (ctx, picks, conn) =>
      ctx.client.call('aiSmarts', { body: picks, variant: conn.variant, signal: ctx.signal() }),
    'boards.suggestions': (ctx, { id }, conn) =>
      id === undefined
        ? ctx.client.call('suggestions', { variant: conn.variant, signal: ctx.signal() })
        : ctx.client.call('boardSuggestions', {
            params: { id },
            variant: conn.variant,
            signal: ctx.signal(),
          }),
    'feed.window': (ctx, input) => readFeedWindow(ctx, input),
    'feed.tabs': (ctx, { board, source }) => feedTabs(ctx, board, source ?? null),
    'feed.refresh': (ctx, { board }) => refreshFeed(ctx, board),
  },
  mutations: {
    'boards.update': {
      endpoint: 'editBoard',
      params: ({ id }) => ({ id }),
      body: ({ draft }) => draft,
      async optimistic(ctx, { id, draft }) {
        const board = await get<Board>(ctx, id);
        return board ? [boardWrite({ ...board, ...draft })] : [];
      },
      confirm: (_input, result) => [boardWrite(result)],
      output: (result) => result,
      deferred: async (ctx, { id }) => {
        const board = await get<Board>(ctx, id);
        if (!board) throw new Error(`boards.update: feed ${id} is not known here yet`);
        return board;
      },
    },
    'boards.enable': {
      endpoint: 'enableBoard',
      params: ({ id }) => ({ id }),
      body: ({ enabled }) => ({ enabled }),
      async optimistic(ctx, { id, enabled }) {
        const board = await get<Board>(ctx, id);
        return board ? [boardWrite({ ...board, enabled })] : [];
      },
      confirm: (_input, result) => [boardWrite(result)],
      output: (result) => result,
      deferred: async (ctx, { id }) => {
        const board = await get<Board>(ctx, id);
        if (!board) throw new Error(`boards.enable: feed ${id} is not known here yet`);
        return board;
      },
    },
    'boards.delete': {
      endpoint: 'deleteBoard',
      params: ({ id }) => ({ id }),
      body: () => undefined,
      // Gone from the list at once; the server's 'board' delete change clears its feed rows.
      async optimistic(ctx, { id }) {
        const list = await get<ListRecord>(ctx, LIST);
        const items: PatchItem<S>[] = [{ store: BOARDS, key: id }];
        if (list?.ids.includes(id)) {
          const ids = list.ids.filter((x) => x !== id);
          items.push({ store: BOARDS, key: LIST, value: { ...list, ids } });
        }
        return items;
      },
      deferred: () => undefined,
    },
  },
  changes: {
    async board(change, tx) {
      const list = await tx.get<ListRecord>(BOARDS, LIST);
      const board = change.op === 'upsert' ? change.data : undefined;
      tx.put(BOARDS, change.id, board);
      if (list) {
        const listedNow = list.ids.includes(change.id);
        if (board && !listedNow) tx.put(BOARDS, LIST, { ...list, ids: [...list.ids, change.id] });
        if (!board && listedNow) {
          tx.put(BOARDS, LIST, { ...list, ids: list.ids.filter((x) => x !== change.id) });
        }
      }
      tx.after(async (ctx) => {
        if (board) return onBoardVersion(ctx, board.board_id, board.version);
        const owner = ctx.owner();
        if (owner) await resetFeed(ctx, owner, change.id, false);
      });
    },
    feed(change, tx) {
      if (change.op !== 'upsert') return;
      const { board_id, seq } = change.data;
      tx.after((ctx) => onFeedChange(ctx, feedId(board_id), seq));
    },
  },
  offers: {
    'feed.unreadBefore': unreadBefore,
  },
  follows: {
    stores: {
      // The feed rows showing these documents carry their read state: their tabs re-read them.
      read_status: rowsShowingReadState('feed_entries', feedKeysOfDocs),
    },
  },
});
