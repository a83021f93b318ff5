import { z } from 'zod';
import { DateRange } from './date-range';
import { defineDomain, endpoint, Empty, id, LIMITS, op, text } from './define';
import { CategoryTabInfo, FeedTabKey, ResultCard } from './documents';
import { Keywords, keywordProblem, SourceFilters } from './feed-query';
import { Source } from './sources';

/**
 * Feeds (boards, 002): a feed is a query over sources. `home` is every source the user
 * follows; a custom feed adds keywords (include/exclude, the boolean keyword language of 002
 * §5), source filters and a date range; an AI feed is a custom feed whose keywords and sources
 * the server proposed from companies, topics and attributes the user picked. A feed's documents
 * are kept current as documents arrive. Shapes the spec leaves "not shown" (create and edit
 * bodies, preview, metadata, suggestions) are ours. The query's parts have their own files:
 * feed-query.ts (keywords, source filters) and date-range.ts; they are re-exported here.
 */

export * from './date-range';
export * from './feed-query';

export const HOME_BOARD = 'home';

/** The custom feed builder's pages and query parameters (002 §2). */
export const FEED_BUILDER_PAGES = [
  'select-feed-type',
  'feed-template-readonly',
  'feed-template-customize',
  'create-feed',
  'edit-feed',
  'select-ai-feed-type',
  'create-ai-feed',
  'edit-ai-feed',
  'feed-suggestion',
  'review-feed-suggestion',
] as const;

/** What an AI feed was built from (002 §3 "AI extras"). */
export const AiPicks = z.object({
  companies: z.array(text('company', LIMITS.name)).max(50),
  topics: z.array(text('topic', LIMITS.name)).max(50),
  attributes: z.array(text('attribute', LIMITS.name)).max(50),
});
export type AiPicks = z.infer<typeof AiPicks>;

/**
 * A feed's query: its sources (source ids; empty means every followed source), keywords,
 * source filters and date range. Invalid keywords are refused (400 with the validator's text).
 */
export const BoardDefinition = z.object({
  sources: z.array(id('sources[]')).max(500, { message: 'a feed has at most 500 sources' }),
  keywords: Keywords,
  filters: SourceFilters,
  date_range: DateRange.nullable(),
  ai: AiPicks.nullable(),
});
export type BoardDefinition = z.infer<typeof BoardDefinition>;

export const EMPTY_DEFINITION: BoardDefinition = {
  sources: [],
  keywords: { include: [], exclude: [] },
  filters: { filter: [], exclusion_filter: [] },
  date_range: null,
  ai: null,
};

/** Every keyword of a definition passes the validator; the message is the validator's. */
const checkedDefinition = BoardDefinition.superRefine((d, ctx) => {
  for (const type of ['include', 'exclude'] as const) {
    d.keywords[type].forEach((k, i) => {
      const problem = keywordProblem(k.keyword);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['keywords', type, i] });
    });
  }
});

export const Board = z.object({
  board_id: z.string(),
  board_name: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  enabled: z.boolean(),
  hidden: z.boolean(),
  /** Created the same day (002 §3). */
  isNew: z.boolean(),
  kind: z.enum(['custom', 'ai']),
  definition: BoardDefinition,
  /** Changes whenever the definition does: a mirror of its documents starts over. */
  version: z.number().int(),
});
export type Board = z.infer<typeof Board>;

export const BoardDraft = z
  .object({
    board_name: text('board_name', LIMITS.name)
      .trim()
      .min(1, { message: 'board_name must not be empty' }),
    description: text('description', LIMITS.text).default(''),
    kind: z.enum(['custom', 'ai']).default('custom'),
    definition: checkedDefinition,
  })
  .strict();
export type BoardDraft = z.infer<typeof BoardDraft>;

export const BoardList = z.object({ results: z.array(Board) });
export const BoardsQuery = z.object({ hidden: z.enum(['true', 'false']).optional() });

/** The sort options of 002 §9 that apply to documents of a feed. */
export const BOARD_SORTS = [
  'latest',
  'oldest',
  'company_asc',
  'company_desc',
  'category_asc',
  'category_desc',
  /** The user's people by priority: documents naming a HIGH person first (server/boards/priority.ts). */
  'priority',
] as const;
export const BoardSort = z.enum(BOARD_SORTS);
export type BoardSort = z.infer<typeof BoardSort>;

/**
 * The key of a feed's document in the worker's 'feed_entries' store: what a 'changed' event on
 * that store names (a list keyed by it re-reads only the rows that changed).
 */
export const feedEntryKey = (board: string, docId: string) => `${board}|${docId}`;

/**
 * GET /boards/{id}/v2 (id `home` or a feed id). Paging newest first by `start_from` (offset)
 * or by `before` (the `next` of the previous page, stable while documents arrive); or, with
 * `after_seq`, the entries added or removed since that sequence number, oldest change first
 * (how the worker keeps its mirror current).
 */
export const BoardDocsQuery = z.object({
  num_docs: z.coerce.number().int().min(0).max(5000).default(20),
  start_from: z.coerce.number().int().min(0).max(10_000_000).optional(),
  before: text('before', 200).optional(),
  after_seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  tab: FeedTabKey.optional(),
  /** Only this source's documents (its key): a source's view of the feed. */
  source: text('source', LIMITS.id).optional(),
  sort: BoardSort.default('latest'),
});
export type BoardDocsQuery = z.infer<typeof BoardDocsQuery>;

/** One document of a feed, as an entry: `removed` entries left it (after_seq answers only). */
export const BoardEntry = ResultCard.extend({
  /** The entry's sequence number within the feed (after_seq pages are in this order). */
  entry_seq: z.number().int(),
  removed: z.boolean(),
});
export type BoardEntry = z.infer<typeof BoardEntry>;

export const BoardDocs = z.object({
  results: z.object({
    board_id: z.string(),
    documents: z.array(BoardEntry),
    /** Documents in the feed (in `tab` when given). */
    count: z.number().int().nonnegative(),
    /** Pass as `before` for the next page; null at the end. */
    next: z.string().nullable(),
    /** The newest entry sequence number: pass as `after_seq` to follow changes from here. */
    seq: z.number().int().min(0),
    /** The definition version these entries belong to. */
    version: z.number().int(),
    has_more: z.boolean(),
  }),
});
export type BoardDocs = z.infer<typeof BoardDocs>;

export const BoardMetadata = z.object({
  board_id: z.string(),
  count: z.number().int(),
  category_tabs: z.array(CategoryTabInfo),
  sources: z.number().int(),
  newest_unix: z.number().int().nullable(),
  seq: z.number().int(),
  version: z.number().int(),
});
export type BoardMetadata = z.infer<typeof BoardMetadata>;

/** Preview of an unsaved definition: its newest documents and count. */
export const BoardPreview = z.object({
  results: z.object({ documents: z.array(ResultCard), count: z.number().int() }),
});

/** What the AI feed builder may pick from, drawn from the corpus (GET /boards/feed_choices). */
export const FeedChoices = z.object({
  companies: z.array(z.string()),
  topics: z.array(z.string()),
  attributes: z.array(z.string()),
});
export type FeedChoices = z.infer<typeof FeedChoices>;

/** A proposed feed: keywords and sources from the corpus, for the user to review and save. */
export const FeedSuggestion = z.object({
  suggestion_id: z.string(),
  board_name: z.string(),
  description: z.string(),
  definition: BoardDefinition,
  /** Why each part was proposed ("Apple Inc.: 42 documents in SEC"). */
  reasons: z.array(z.string()),
  /** Documents the proposed feed would hold now. */
  count: z.number().int(),
});
export type FeedSuggestion = z.infer<typeof FeedSuggestion>;
export const FeedSuggestions = z.object({ results: z.array(FeedSuggestion) });

export const EnableBody = z.object({ enabled: z.boolean() }).strict();

/** DELETE /boards/{id}: the feed is gone (its owner's only; someone else's id answers 404). */
export const BoardDeleted = z.object({ ok: z.literal(true) });

export const boards = defineDomain({
  name: 'boards',
  endpoints: {
    boards: endpoint({
      method: 'get',
      path: '/boards/v2',
      auth: true,
      query: BoardsQuery,
      response: BoardList,
      status: 200,
      summary: "The user's feeds (hidden=true includes disabled ones)",
    }),
    createBoard: endpoint({
      method: 'post',
      path: '/boards/v2',
      auth: true,
      body: BoardDraft,
      response: Board,
      status: 201,
      summary: 'Create a custom or AI feed',
    }),
    board: endpoint({
      method: 'get',
      path: '/boards/{id}',
      auth: true,
      response: Board,
      status: 200,
      summary: 'One feed',
    }),
    editBoard: endpoint({
      method: 'put',
      path: '/boards/{id}',
      auth: true,
      body: BoardDraft,
      response: Board,
      status: 200,
      summary: "Edit a feed's name, description and query",
    }),
    deleteBoard: endpoint({
      method: 'delete',
      path: '/boards/{id}',
      auth: true,
      response: BoardDeleted,
      status: 200,
      summary: 'Delete a custom or AI feed and its entries',
    }),
    duplicateBoard: endpoint({
      method: 'post',
      path: '/boards/{id}/duplicate',
      auth: true,
      body: z.object({ board_name: text('board_name', LIMITS.name).optional() }).strict(),
      response: Board,
      status: 201,
      summary: 'Duplicate a feed',
    }),
    enableBoard: endpoint({
      method: 'put',
      path: '/boards/enable/{id}',
      auth: true,
      body: EnableBody,
      response: Board,
      status: 200,
      summary: 'Enable or disable (hide) a feed',
    }),
    boardDocs: endpoint({
      method: 'get',
      path: '/boards/{id}/v2',
      auth: true,
      query: BoardDocsQuery,
      response: BoardDocs,
      status: 200,
      summary: "A feed's documents newest first, or its changes after a sequence number",
    }),
    boardMetadata: endpoint({
      method: 'get',
      path: '/boards/{id}/metadata',
      auth: true,
      response: BoardMetadata,
      status: 200,
      summary: "A feed's counts per category tab",
    }),
    boardSources: endpoint({
      method: 'get',
      path: '/boards/{id}/sources',
      auth: true,
      response: z.object({ results: z.array(Source) }),
      status: 200,
      summary: 'The sources a feed reads',
    }),
    boardChannels: endpoint({
      method: 'get',
      path: '/boards/{id}/channels',
      auth: true,
      response: z.object({ results: z.array(z.object({ id: z.string(), name: z.string() })) }),
      status: 200,
      summary: 'The groups a feed is shared with (groups arrive in a later issue)',
    }),
    previewBoard: endpoint({
      method: 'post',
      path: '/boards/{id}/preview',
      auth: true,
      body: z.object({ definition: checkedDefinition }).strict(),
      response: BoardPreview,
      status: 200,
      summary: "Preview a definition's documents (id `new` for an unsaved feed)",
    }),
    feedChoices: endpoint({
      method: 'get',
      path: '/boards/feed_choices',
      auth: true,
      response: FeedChoices,
      status: 200,
      summary: 'Companies, topics and attributes to build an AI feed from',
    }),
    aiSmarts: endpoint({
      method: 'post',
      path: '/boards/ai_smarts',
      auth: true,
      body: AiPicks.strict(),
      response: FeedSuggestion,
      status: 200,
      summary: 'Propose keywords and sources for the picked companies, topics and attributes',
    }),
    suggestions: endpoint({
      method: 'get',
      path: '/boards/suggestions',
      auth: true,
      response: FeedSuggestions,
      status: 200,
      summary: 'Suggested feeds drawn from what the user follows',
    }),
    boardSuggestions: endpoint({
      method: 'get',
      path: '/boards/{id}/suggestions',
      auth: true,
      response: FeedSuggestions,
      status: 200,
      summary: 'Suggested refinements of one feed',
    }),
  },
  ops: {
    'boards.list': op(z.object({ hidden: z.boolean().optional() }), z.array(Board)),
    'boards.get': op(z.object({ id: id() }), Board),
    'boards.create': op(BoardDraft, Board),
    'boards.update': op(z.object({ id: id(), draft: BoardDraft }), Board),
    'boards.duplicate': op(z.object({ id: id(), board_name: z.string().optional() }), Board),
    'boards.enable': op(z.object({ id: id(), enabled: z.boolean() }), Board),
    'boards.delete': op(z.object({ id: id() }), z.void()),
    'boards.preview': op(z.object({ definition: BoardDefinition }), BoardPreview),
    'boards.choices': op(Empty, FeedChoices),
    'boards.aiSmarts': op(AiPicks, FeedSuggestion),
    'boards.suggestions': op(z.object({ id: id().optional() }), FeedSuggestions),
    /**
     * A window of a feed from the mirror (never the whole list): `count` rows from `offset` in
     * `sort` order, within `tab` when given. Rows the mirror lacks yet are fetched in the
     * background and announced with a 'changed' event on 'feed_entries'.
     */
    'feed.window': op(
      z.object({
        board: id('board'),
        tab: FeedTabKey.nullable(),
        sort: BoardSort,
        /**
         * Only this source's documents (its key, as in ResultCard.source): the /apps/{source}
         * view, read from the home feed. Absent or null: every source of the feed.
         */
        source: id('source').nullable().optional(),
        offset: z.number().int().min(0).max(100_000_000),
        count: z.number().int().min(1).max(500),
      }),
      z.object({
        offset: z.number().int(),
        rows: z.array(ResultCard.extend({ read: z.boolean() })),
        total: z.number().int().nonnegative(),
        /** The mirror holds the whole feed (every row is local). */
        complete: z.boolean(),
      }),
    ),
    /** The feed's tabs with counts (hidden tabs removed, exchanges split). */
    'feed.tabs': op(
      z.object({ board: id('board'), source: id('source').nullable().optional() }),
      z.array(CategoryTabInfo),
    ),
    /** Pull the feed's new entries now (also done on every change-feed signal). */
    'feed.refresh': op(z.object({ board: id('board') }), z.object({ total: z.number().int() })),
  },
  /** 'board': a feed was created or changed; 'feed': new entries exist after `seq`. */
  changes: { board: Board, feed: z.object({ board_id: z.string(), seq: z.number().int() }) },
  stores: ['boards', 'feed_entries'],
});
