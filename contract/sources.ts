import { z } from 'zod';
import { defineDomain, endpoint, Empty, id, LIMITS, op, text } from './define';
import { CategoryTab, Market } from './documents';

/**
 * Sources: the catalogue (000 §3, keys and titles in source-catalogue.ts), what a user follows,
 * and the ingestion status of each followed source. The spec lists the /source/... and
 * /connect/... paths with bodies "not shown"; the shapes here are ours, noted per endpoint.
 */

/** How a source is read: an RSS/Atom feed, a website (feed discovered or readable text), a
 * filings preset (exchange or regulator), or built-in demo content (no network). */
export const SourceKind = z.enum(['rss', 'website', 'filings', 'builtin']);
export type SourceKind = z.infer<typeof SourceKind>;

/** The state of a source's ingestion, so a user sees why a source is empty. */
export const IngestionStatus = z.object({
  state: z.enum(['pending', 'running', 'ok', 'error']),
  /** ISO times; null before the first run. */
  last_run_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  /** Documents the source holds. */
  items: z.number().int().nonnegative(),
  /** New documents of the last run. */
  last_new: z.number().int().nonnegative(),
  /** What went wrong in the last run, in words a user can act on; null when it went well. */
  last_error: z.string().nullable(),
});
export type IngestionStatus = z.infer<typeof IngestionStatus>;

/** A source (002 §3 "Source" and "RSS source" fields, plus its kind, address and status). */
export const Source = z.object({
  source_id: z.string(),
  /** Catalogue key (`sec`, `bse_filings`), or `rss_<id>` / `web_<id>` for a followed URL. */
  key: z.string(),
  label: z.string(),
  /** The family: rss_news (news, blogs, websites) or exchanges_groups (filings). */
  category: z.enum(['rss_news', 'exchanges_groups']),
  category_tab: CategoryTab,
  market: Market.nullable(),
  /** The catalogue group title ("Indian Capital Markets"), or null. */
  group: z.string().nullable(),
  kind: SourceKind,
  /** The feed or page address read (link_to_crawl), or null for built-in content. */
  link_to_crawl: z.string().nullable(),
  /** The site's home page, when known. */
  value: z.string().nullable(),
  thumbnail_location: z.string().nullable(),
  /** The feature flag it sits under (rss_news, exchanges). */
  flag: z.string(),
  public: z.boolean(),
  followed: z.boolean(),
  /** Priority website (website_priority): shown first. */
  priority: z.boolean(),
  status: IngestionStatus,
});
export type Source = z.infer<typeof Source>;

export const SourceList = z.object({ sources: z.array(Source) });
export type SourceList = z.infer<typeof SourceList>;

/** GET /categories: every category with the sources the user may follow in it. */
export const Category = z.object({
  key: z.string(),
  label: z.string(),
  group: z.string().nullable(),
  sources: z.array(Source),
});
export const Categories = z.object({ results: z.array(Category) });
export type Categories = z.infer<typeof Categories>;

export const PublicSourcesQuery = z.object({
  priority_websites: z.enum(['true', 'false']).optional(),
});

const sourceKey = id('key');
const url = text('url', LIMITS.path).trim().min(1, { message: 'url must not be empty' });

/** POST /connect/public: follow `{key}`; with `delink: true`, unfollow (002 §7). */
export const FollowBody = z.object({ key: sourceKey, delink: z.boolean().optional() }).strict();
export type FollowBody = z.infer<typeof FollowBody>;
/** The source after the change; `message` is the spec's toast ("{name} is successfully followed"). */
export const FollowResult = z.object({ source: Source, message: z.string() });
export type FollowResult = z.infer<typeof FollowResult>;

/** POST /connect/public/multiple: follow several catalogue sources at once. */
export const FollowManyBody = z
  .object({
    keys: z
      .array(sourceKey)
      .min(1, { message: 'keys must not be empty' })
      .max(100, { message: 'keys holds at most 100 sources' }),
  })
  .strict();
export const FollowManyResult = z.object({ sources: z.array(Source) });

/** POST /connect/rss, POST /connect/{app}/custom: follow a feed or a website by its address. */
export const FollowUrlBody = z
  .object({ url, label: text('label', LIMITS.name).trim().optional() })
  .strict();
export type FollowUrlBody = z.infer<typeof FollowUrlBody>;

/** Bulk priority (002 §5): 1 to 50 sources. */
export const MAX_PRIORITY_BULK = 50;
export const PRIORITY_TEXT = {
  tooMany: 'Please select 50 or less sources to proceed',
  success: 'Priority updated successfully.',
  failure: 'Failed to update priority for the selected sources. Please try again later.',
} as const;
/** Follow/unfollow failure without a server text (002 §8). */
export const FOLLOW_FAILURE_TEXT = 'Something went wrong. Please try again';
export const followedText = (name: string) => `${name} is successfully followed`;
export const unfollowedText = (name: string) => `${name} is successfully unfollowed`;

export const PriorityBody = z
  .object({
    source_ids: z
      .array(id('source_ids[]'))
      .min(1, { message: PRIORITY_TEXT.tooMany })
      .max(MAX_PRIORITY_BULK, { message: PRIORITY_TEXT.tooMany }),
    priority: z.boolean(),
  })
  .strict();
export type PriorityBody = z.infer<typeof PriorityBody>;
export const PriorityResult = z.object({ updated: z.number().int(), message: z.string() });

/** GET /connect/rssTopics: RSS feeds by topic (the catalogue's topic categories). */
export const RssTopics = z.object({
  results: z.array(z.object({ topic: z.string(), label: z.string(), sources: z.array(Source) })),
});

/** GET /source/status: ingestion status of every followed source (designed here). */
export const SourceStatusList = z.object({
  results: z.array(
    z.object({
      source_id: z.string(),
      label: z.string(),
      kind: SourceKind,
      status: IngestionStatus,
    }),
  ),
});

/**
 * Add to feeds (002 §4, §7 "public source boards"): which of the user's own feeds read a
 * source. GET /source/public/{id}/boards answers every feed of the user (hidden ones too) with
 * `selected` when its sources include this one; `reads_all` marks a feed with no sources of its
 * own (it reads every followed source, so it holds this one whenever it is followed; the picker
 * shows it checked and fixed). POST with `{ boards }` (designed here: the spec shows the field
 * only) makes exactly those feeds read the source: it is added to the listed feeds and taken
 * out of the others. An id that is not one of the user's feeds is a 400 naming it; so is
 * leaving out a feed that reads every source, or taking a feed's only source away (it would
 * then read every source). Answers the new state.
 */
export const SourceBoard = z.object({
  board_id: z.string(),
  board_name: z.string(),
  selected: z.boolean(),
  reads_all: z.boolean(),
});
export type SourceBoard = z.infer<typeof SourceBoard>;
export const SourceBoards = z.object({ results: z.array(SourceBoard) });
export type SourceBoards = z.infer<typeof SourceBoards>;
export const SourceBoardsBody = z
  .object({
    boards: z.array(id('boards[]')).max(500, { message: 'boards holds at most 500 feeds' }),
  })
  .strict();
export type SourceBoardsBody = z.infer<typeof SourceBoardsBody>;

export const sources = defineDomain({
  name: 'sources',
  endpoints: {
    categories: endpoint({
      method: 'get',
      path: '/categories',
      auth: true,
      response: Categories,
      status: 200,
      summary: 'Every category with the sources the user may follow',
    }),
    publicSources: endpoint({
      method: 'get',
      path: '/source/public',
      auth: true,
      query: PublicSourcesQuery,
      response: SourceList,
      status: 200,
      summary: 'Public sources (catalogue presets and public feeds), followed flag per user',
    }),
    privateSources: endpoint({
      method: 'get',
      path: '/source/private',
      auth: true,
      response: SourceList,
      status: 200,
      summary: "The user's own sources (followed by address)",
    }),
    rssSources: endpoint({
      method: 'get',
      path: '/source/rss',
      auth: true,
      response: z.object({ results: z.array(Source) }),
      status: 200,
      summary: 'The RSS and website sources the user follows',
    }),
    rssSource: endpoint({
      method: 'get',
      path: '/source/rss/{id}',
      auth: true,
      response: Source,
      status: 200,
      summary: 'One followed RSS source',
    }),
    sourceStatus: endpoint({
      method: 'get',
      path: '/source/status',
      auth: true,
      response: SourceStatusList,
      status: 200,
      summary: 'Ingestion status of every followed source',
    }),
    setPriority: endpoint({
      method: 'put',
      path: '/source/public',
      auth: true,
      body: PriorityBody,
      response: PriorityResult,
      status: 200,
      summary: 'Set priority on 1 to 50 followed sources',
    }),
    follow: endpoint({
      method: 'post',
      path: '/connect/public',
      auth: true,
      body: FollowBody,
      response: FollowResult,
      status: 200,
      summary: 'Follow a public source by key, or unfollow it with delink: true',
    }),
    followMany: endpoint({
      method: 'post',
      path: '/connect/public/multiple',
      auth: true,
      body: FollowManyBody,
      response: FollowManyResult,
      status: 200,
      summary: 'Follow several public sources',
    }),
    followRss: endpoint({
      method: 'post',
      path: '/connect/rss',
      auth: true,
      body: FollowUrlBody,
      response: Source,
      status: 201,
      summary: 'Follow an RSS or Atom feed, or a website, by address',
    }),
    followCustom: endpoint({
      method: 'post',
      path: '/connect/{app}/custom',
      auth: true,
      body: FollowUrlBody,
      response: Source,
      status: 201,
      summary: 'Add a custom public source (app: rss or website) by address',
    }),
    sourceBoards: endpoint({
      method: 'get',
      path: '/source/public/{id}/boards',
      auth: true,
      response: SourceBoards,
      status: 200,
      summary: "The user's feeds, each marked when it reads this source (add to feeds)",
    }),
    setSourceBoards: endpoint({
      method: 'post',
      path: '/source/public/{id}/boards',
      auth: true,
      body: SourceBoardsBody,
      response: SourceBoards,
      status: 200,
      summary: 'Make exactly these feeds of the user read this source',
    }),
    rssTopics: endpoint({
      method: 'get',
      path: '/connect/rssTopics',
      auth: true,
      response: RssTopics,
      status: 200,
      summary: 'Suggested feeds by topic',
    }),
  },
  ops: {
    /** The categories and their sources (fresh 15 s, 002 §7). */
    'sources.catalogue': op(Empty, Categories),
    /** What the user follows, with each source's ingestion status, from the mirror. */
    'sources.list': op(Empty, z.array(Source)),
    'sources.follow': op(z.object({ key: sourceKey }), FollowResult),
    /** Unfollow; answers the next followed source's key (where the UI goes), or null. */
    'sources.unfollow': op(
      z.object({ key: sourceKey }),
      z.object({ message: z.string(), next: z.string().nullable() }),
    ),
    'sources.followMany': op(FollowManyBody, FollowManyResult),
    'sources.followUrl': op(FollowUrlBody, Source),
    'sources.setPriority': op(PriorityBody, PriorityResult),
    'sources.topics': op(Empty, RssTopics),
    /** The user's feeds for a source's add-to-feeds picker (mirrored, revalidated). */
    'sources.feeds': op(z.object({ key: sourceKey }), z.array(SourceBoard)),
    /** Add to feeds: optimistic through the outbox, reverted when the server refuses. */
    'sources.setFeeds': op(
      z.object({ key: sourceKey, boards: SourceBoardsBody.shape.boards }),
      z.array(SourceBoard),
    ),
  },
  changes: { follow: Source },
  stores: ['sources'],
});
