import { z } from 'zod';
import { defineDomain, endpoint, id, op, text } from './define';

/**
 * Documents: the one model every feature reads (feed cards, search, the assistant, uploads,
 * groups). A document belongs to one source; its HTML was sanitised on the way in (server),
 * its plain text is what search and the assistant read. The read-state calls are 002 §7's
 * "deeplink read status"; their paths are 000 §7's /doc/read_status and /doc/read_Status/{id}.
 */

/** Where a document is filed: the tabs of a feed (002 §3 category tabs). */
export const CATEGORY_TABS = [
  'rss_news',
  'exchanges',
  'research',
  'webclips',
  'documents',
] as const;
export const CategoryTab = z.enum(CATEGORY_TABS);
export type CategoryTab = z.infer<typeof CategoryTab>;

/** The market a filing belongs to (000 §3: regulatory keys map to these). */
export const MARKETS = [
  'india_capital_markets',
  'us_capital_markets',
  'nz_capital_markets',
] as const;
export const Market = z.enum(MARKETS);
export type Market = z.infer<typeof Market>;

/**
 * The tabs a feed shows (000 §3): category tabs minus the hidden ones (today, links, media),
 * with exchanges expanded into one tab per market. NZ is ours: the spec names Indian and US
 * Exchange; NZX filings need a tab too and get one, shown only when it has documents.
 */
export const FEED_TABS = [
  { key: 'rss_news', label: 'News', category_tab: 'rss_news', market: null },
  {
    key: 'india_capital_markets',
    label: 'Indian Exchange',
    category_tab: 'exchanges',
    market: 'india_capital_markets',
  },
  {
    key: 'us_capital_markets',
    label: 'US Exchange',
    category_tab: 'exchanges',
    market: 'us_capital_markets',
  },
  {
    key: 'nz_capital_markets',
    label: 'NZ Exchange',
    category_tab: 'exchanges',
    market: 'nz_capital_markets',
  },
  { key: 'research', label: 'Research', category_tab: 'research', market: null },
  { key: 'webclips', label: 'Web Clips', category_tab: 'webclips', market: null },
  { key: 'documents', label: 'Documents', category_tab: 'documents', market: null },
] as const satisfies ReadonlyArray<{
  key: string;
  label: string;
  category_tab: CategoryTab;
  market: Market | null;
}>;
export const FeedTabKey = z.enum(FEED_TABS.map((t) => t.key) as [string, ...string[]]);
export type FeedTabKey = (typeof FEED_TABS)[number]['key'];
/** Category tabs the spec hides (000 §3). */
export const HIDDEN_CATEGORY_TABS = ['today', 'links', 'media'] as const;

/** The feed tab a document is shown under. */
export const feedTabOf = (doc: { category_tab: CategoryTab; market: Market | null }): FeedTabKey =>
  doc.category_tab === 'exchanges' ? (doc.market ?? 'us_capital_markets') : doc.category_tab;

/** One category tab with its count (000 §3 "Category tabs response"). */
export const CategoryTabInfo = z.object({
  key: z.string(),
  label: z.string(),
  /** How many documents the tab holds. */
  data: z.number().int().nonnegative(),
  icon: z.string(),
});
export type CategoryTabInfo = z.infer<typeof CategoryTabInfo>;

/** Snippets are cut at 1000 characters plus "..." (002 §9). */
export const SNIPPET_CHARS = 1000;
/** Non-RSS previews show at most 100 words (002 §9). */
export const PREVIEW_WORDS = 100;

export const snippet = (text: string): string =>
  text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}...` : text;

export const previewWords = (text: string): string => {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > PREVIEW_WORDS ? `${words.slice(0, PREVIEW_WORDS).join(' ')}...` : text;
};

/** Images render only from https (002 §5 "Image previews"). */
export const isSafeImage = (url: string | null | undefined): url is string => {
  if (!url) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * A result card (002 §3): what a feed, a board preview and (later) search answer per document.
 * Fields of the spec's card that no document here has yet (mail, chat, notes, uploads) are
 * absent rather than null; later features add them. `plain_text` is the snippet (at most 1000
 * characters plus "..."), never the whole text: the full document is `GET /doc/{source}`.
 */
export const ResultCard = z.object({
  doc_id: z.string(),
  /** The document's address in routes (/preview/{category}/{deeplink}); equal to doc_id. */
  deeplink: z.string(),
  /** The source key (catalogue key, or `rss_<id>` / `web_<id>` for a followed URL). */
  source: z.string(),
  source_id: z.string(),
  /** The source's title. */
  label: z.string(),
  /** The source family: rss_news for news and websites, exchanges_groups for filings. */
  category: z.string(),
  category_tab: CategoryTab,
  market: Market.nullable(),
  /** Published time, unix seconds. */
  unix: z.number().int(),
  title: z.string(),
  /** The original address (http or https), or null. */
  link: z.string().nullable(),
  plain_text: z.string(),
  thumbnail_location: z.string().nullable(),
  mime_type: z.string(),
  /** Filings (typed cards). */
  company_name: z.string().nullable(),
  security_code: z.string().nullable(),
  security_id: z.string().nullable(),
  secondary_category: z.string().nullable(),
  /** Filing category ("Annual Report", "10-K"), or the news categories joined. */
  categories: z.array(z.string()),
  access_key: z.string(),
  /** Ingestion order, strictly increasing across the corpus. */
  seq: z.number().int(),
});
export type ResultCard = z.infer<typeof ResultCard>;

/** A whole document (preview): the card plus its sanitised HTML and its full plain text. */
export const DocumentDetail = ResultCard.extend({
  /** Sanitised on the way in: no scripts, no event handlers, no javascript: links. */
  content: z.string(),
  body: z.string(),
  read: z.boolean(),
});
export type DocumentDetail = z.infer<typeof DocumentDetail>;

export const DocQuery = z.object({
  deeplink: id('deeplink'),
  access_key: text('access_key', 200).optional(),
  public_access_key: text('public_access_key', 200).optional(),
});
export const DocResult = z.object({ results: z.array(DocumentDetail) });

export const ReadState = z.enum(['read', 'unread']);
export type ReadState = z.infer<typeof ReadState>;

/** PUT /doc/read_status: mark documents read or unread (one to 500 at once). */
export const ReadStatusBody = z
  .object({
    deeplinks: z
      .array(id('deeplinks[]'))
      .min(1, { message: 'deeplinks must not be empty' })
      .max(500, { message: 'deeplinks holds at most 500 documents' }),
    status: ReadState,
  })
  .strict();
export type ReadStatusBody = z.infer<typeof ReadStatusBody>;
export const ReadStatusResult = z.object({ updated: z.number().int().nonnegative() });

/** GET /doc/read_status: the user's read deeplinks, oldest mark first, by cursor. */
export const ReadListQuery = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
export const ReadList = z.object({
  deeplinks: z.array(z.string()),
  /** Pass back as `after`; has_more false at the end. */
  cursor: z.number().int().min(0),
  has_more: z.boolean(),
});
export type ReadList = z.infer<typeof ReadList>;

export const ReadOne = z.object({ deeplink: z.string(), status: ReadState });

/**
 * "Mark all read" marks at most this many documents in one request, newest first; `has_more`
 * says more remain (a second request marks the next ones).
 */
export const MARK_ALL_READ_LIMIT = 5000;

/**
 * POST /boards/{id}/read-all (not shown in the spec; designed here): marks read, for the caller
 * only, the feed's documents dated at or before `before` (unix seconds: the moment the user
 * asked, so a document that arrives later stays unread), within `tab` and `source` when given,
 * that are unread; at most MARK_ALL_READ_LIMIT, newest first.
 */
export const MarkAllReadBody = z
  .object({
    before: z.number().int().min(0).max(99_999_999_999),
    tab: FeedTabKey.nullable().optional(),
    source: id('source').nullable().optional(),
  })
  .strict();
export type MarkAllReadBody = z.infer<typeof MarkAllReadBody>;
/** The documents this request marked (exactly those that were unread): what an undo restores. */
export const MarkAllReadResult = z.object({
  deeplinks: z.array(z.string()),
  has_more: z.boolean(),
});
export type MarkAllReadResult = z.infer<typeof MarkAllReadResult>;

/** POST /doc/read_status/unread: the undo of a mark-all-read, in one request (designed here). */
export const MarkUnreadBody = z
  .object({
    deeplinks: z
      .array(id('deeplinks[]'))
      .min(1, { message: 'deeplinks must not be empty' })
      .max(MARK_ALL_READ_LIMIT, {
        message: `deeplinks holds at most ${MARK_ALL_READ_LIMIT} documents`,
      }),
  })
  .strict();

/** The change-feed entity for read state: one per document whose state changed. */
export const ReadChange = z.object({ deeplink: z.string(), read: z.boolean() });

export const documents = defineDomain({
  name: 'documents',
  endpoints: {
    doc: endpoint({
      method: 'get',
      path: '/doc/{source}',
      auth: true,
      query: DocQuery,
      response: DocResult,
      status: 200,
      summary: 'One document with its sanitised HTML and full text (preview)',
    }),
    readStatus: endpoint({
      method: 'put',
      path: '/doc/read_status',
      auth: true,
      body: ReadStatusBody,
      response: ReadStatusResult,
      status: 200,
      summary: 'Mark documents read or unread',
    }),
    readList: endpoint({
      method: 'get',
      path: '/doc/read_status',
      auth: true,
      query: ReadListQuery,
      response: ReadList,
      status: 200,
      summary: "The user's read documents, by cursor",
    }),
    markAllRead: endpoint({
      method: 'post',
      path: '/boards/{id}/read-all',
      auth: true,
      body: MarkAllReadBody,
      response: MarkAllReadResult,
      status: 200,
      summary: "Mark a feed's documents read, up to a moment (at most 5000, newest first)",
    }),
    markUnread: endpoint({
      method: 'post',
      path: '/doc/read_status/unread',
      auth: true,
      body: MarkUnreadBody,
      response: ReadStatusResult,
      status: 200,
      summary: 'Mark documents unread again (the undo of mark all read; up to 5000)',
    }),
    readOne: endpoint({
      method: 'get',
      path: '/doc/read_Status/{id}',
      auth: true,
      response: ReadOne,
      status: 200,
      summary: 'Whether one document is read',
    }),
  },
  ops: {
    /** The whole document, from the mirror when held, else fetched (and kept). */
    'doc.get': op(z.object({ source: id('source'), deeplink: id('deeplink') }), DocumentDetail),
    /** Optimistic through the outbox; every tab sees the new state at once. */
    'doc.setRead': op(ReadStatusBody, z.void()),
    /**
     * Mark a feed (a tab, a source of it) all read: optimistic in the mirror, one request. The
     * answer names the documents marked; while offline, those the mirror held unread.
     */
    'doc.markAllRead': op(
      MarkAllReadBody.extend({
        board: id('board'),
        /** The tab's id for this request: the offline answer is found by it. */
        mark_id: id('mark_id').optional(),
      }),
      MarkAllReadResult,
    ),
    /** Undo a mark-all-read: exactly the documents it marked, unread again, in one request. */
    'doc.markUnread': op(MarkUnreadBody, z.void()),
    /** Which of these documents are read (from the mirror). */
    'doc.readState': op(
      z.object({ deeplinks: z.array(z.string()).max(500) }),
      z.record(z.string(), z.boolean()),
    ),
  },
  changes: { read_status: ReadChange },
  stores: ['documents', 'read_status'],
});
