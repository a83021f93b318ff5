import { z } from 'zod';
import { DEFAULT_PRODUCT } from './constants';
import { defineDomain, endpoint, id, op, queryInt } from './define';
import { ResultCard } from './documents';

/**
 * Tags and bookmarks (002 §3-5, §7, §9): the user's own tags (`user_tags`; `shared_tags` join
 * when groups exist, empty until then) and the links from a document to them. A bookmark is the
 * reserved tag `{product}_internal_bookmark`. The spec shows the calls but not their shapes:
 * designed here.
 *
 * - GET /tag/user-tags: every tag of the user (at most MAX_USER_TAGS), oldest first.
 * - POST /tags `{ tag, id? }`: create a tag. `id` is the client's id for it (the optimistic
 *   record's key); a tag of the same name (case-insensitively) already there is answered as is
 *   (so a retried create lands once), and its id then stands.
 * - POST /tag/delete `{ tag_id }`: delete a tag and its links (one 'tag' delete change: the
 *   mirror drops the tag's links with it).
 * - GET /tag/{id}: a document's tags (`user_tags`, `shared_tags`); 404 for a document the user
 *   may not see.
 * - POST /tag/{id} `{ tags, feed_id?, channel_id?, create? }`: set a document's user tags to
 *   exactly `tags` (tag ids of the user's own tags; an unknown one is a 400), creating the tags
 *   of `create` first (the bookmark toggle: "creating it first when adding", in one request, as
 *   the worker's outbox orders entries per op, not across ops).
 * - GET /tag/links?after=&limit=&cards=: the user's document-tag links by deeplink cursor (the
 *   mirror's pull); with `cards=true` each link carries its document's result card (absent for
 *   a document the user may no longer see), so a tag page is read from the mirror alone. A
 *   deeplink `links`, `delete`, `rename`, `merge` or `user-tags` is shadowed by these paths.
 * - A 'document_tags' change carries the document's card too (the tag page of another device).
 * - GET /source/needlbox: the needlbox's sources with their counts.
 * - The Tags Manager (`/settings/tags`): POST /tag/rename `{ tag_id, tag }` (409 when another
 *   tag has that name: merge them instead), POST /tag/merge `{ from, into }` (the documents of
 *   `from` carry `into` instead and `from` goes: one 'tag_merge' change), and a tag's document
 *   count from the mirror (`tags.counts`). The bookmark tag is neither renamed nor merged.
 */

/** The reserved bookmark tag's name (002 §3): `{product}_internal_bookmark`. */
export const bookmarkTagName = (product: string = DEFAULT_PRODUCT) =>
  `${product}_internal_bookmark`;
/** The reserved tag's id, the same for every user and device (so two creates are one tag). */
export const BOOKMARK_TAG_ID = 'bookmark';

/** A tag name holds at most this many characters (after trimming). */
export const TAG_NAME_MAX = 100;
/** A user holds at most this many tags (GET /tag/user-tags answers them all). */
export const MAX_USER_TAGS = 1000;
/** A document carries at most this many of one user's tags. */
export const MAX_DOCUMENT_TAGS = 50;
/** The most links one GET /tag/links page answers. */
export const TAG_LINKS_PAGE = 5000;

/** What is wrong with a tag name, or null: trimmed, non-empty, at most TAG_NAME_MAX. */
export const tagNameProblem = (name: string): string | null => {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'tag must not be empty';
  if (trimmed.length > TAG_NAME_MAX) return `tag must be at most ${TAG_NAME_MAX} characters`;
  return null;
};

/** The key two tag names are the same by (case-insensitive, trimmed). */
export const tagKey = (name: string) => name.trim().toLowerCase();

/**
 * The tag picker's "Add {tag}" offer (002 §5): the trimmed input when it is a valid name, not
 * already among the user's tags (case-insensitively) and not the reserved bookmark name; else
 * null (no offer shown).
 */
export const tagOffer = (
  input: string,
  tags: ReadonlyArray<{ name: string }>,
  product: string = DEFAULT_PRODUCT,
): string | null => {
  const trimmed = input.trim();
  if (tagNameProblem(trimmed)) return null;
  const key = tagKey(trimmed);
  if (key === tagKey(bookmarkTagName(product))) return null;
  if (tags.some((t) => tagKey(t.name) === key)) return null;
  return trimmed;
};

export const Tag = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
});
export type Tag = z.infer<typeof Tag>;

/** A document's user tags, as a change's data and a mirror record. */
export const DocumentTags = z.object({
  deeplink: z.string(),
  tag_ids: z.array(z.string()),
});
export type DocumentTags = z.infer<typeof DocumentTags>;

/** A link with its document's card (GET /tag/links?cards=true, the 'document_tags' change). */
export const TagLink = DocumentTags.extend({ card: ResultCard.optional() });
export type TagLink = z.infer<typeof TagLink>;

/** A row of a tag page: the tagged document's card with its read state, null when not held. */
export const TagRow = z.object({
  deeplink: z.string(),
  card: ResultCard.extend({ read: z.boolean() }).nullable(),
});
export type TagRow = z.infer<typeof TagRow>;

const tagName = z
  .string({ message: 'tag must be text' })
  .max(TAG_NAME_MAX * 4, { message: `tag must be at most ${TAG_NAME_MAX} characters` })
  .superRefine((value, ctx) => {
    const problem = tagNameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.trim());

export const CreateTagBody = z.object({ tag: tagName, id: id('id').optional() }).strict();
export type CreateTagBody = z.input<typeof CreateTagBody>;
export const CreateTagResult = z.object({ tag: Tag, created: z.boolean() });

export const DeleteTagBody = z.object({ tag_id: id('tag_id') }).strict();
export const DeleteTagResult = z.object({ deleted: z.number().int().nonnegative() });

export const UserTags = z.object({ user_tags: z.array(Tag) });

export const RenameTagBody = z.object({ tag_id: id('tag_id'), tag: tagName }).strict();
export const RenameTagResult = z.object({ tag: Tag });

export const MergeTagsBody = z
  .object({ from: id('from'), into: id('into') })
  .strict()
  .refine((b) => b.from !== b.into, { path: ['into'], message: 'into must differ from from' });
/** The tag that stands, and how many documents carried `from` (now `into`). */
export const MergeTagsResult = z.object({ tag: Tag, moved: z.number().int().nonnegative() });

/** A merge as a change's data: every document carrying `from` carries `into` instead. */
export const TagMerge = z.object({ from: z.string(), into: z.string() });
export type TagMerge = z.infer<typeof TagMerge>;

export const DocumentTagsResult = z.object({
  deep_link: z.string(),
  user_tags: z.array(Tag),
  /** Tags shared in groups: none until groups exist. */
  shared_tags: z.array(Tag),
});
export type DocumentTagsResult = z.infer<typeof DocumentTagsResult>;

export const DocumentTagsQuery = z.object({ channel_id: id('channel_id').optional() });

export const SetDocumentTagsBody = z
  .object({
    tags: z
      .array(id('tags[]'))
      .max(MAX_DOCUMENT_TAGS, { message: `tags holds at most ${MAX_DOCUMENT_TAGS} tags` }),
    feed_id: id('feed_id').optional(),
    channel_id: id('channel_id').optional(),
    /**
     * Tags to create first when the user has none of that name (the bookmark toggle's reserved
     * tag, a tag made in the picker and applied at once): created as POST /tags does, in the
     * same transaction, so the link never arrives before its tag. An id of `tags` naming one of
     * these stands for the tag that name resolves to.
     */
    create: z
      .array(z.object({ tag: tagName, id: id('create[].id') }).strict())
      .max(MAX_DOCUMENT_TAGS, { message: `create holds at most ${MAX_DOCUMENT_TAGS} tags` })
      .optional(),
  })
  .strict();
export type SetDocumentTagsBody = z.infer<typeof SetDocumentTagsBody>;

/** A page of links: documents after the deeplink `after`, in deeplink order. */
/** The document's tags as set, and the tags `create` named, as they now stand. */
export const SetDocumentTagsResult = DocumentTags.extend({ created: z.array(Tag) });

export const TagLinksQuery = z.object({
  after: id('after').optional(),
  limit: queryInt('limit', 1, TAG_LINKS_PAGE, TAG_LINKS_PAGE),
  cards: z.enum(['true', 'false'], { message: 'cards must be true or false' }).optional(),
});
export const TagLinks = z.object({
  links: z.array(TagLink),
  /** The last deeplink of the page (the next page's `after`); null on an empty page. */
  cursor: z.string().nullable(),
  has_more: z.boolean(),
});

export const NeedlboxSource = z.object({
  key: z.enum(['bookmarks', 'tags']),
  label: z.string(),
  count: z.number().int().nonnegative(),
});
export const NeedlboxSources = z.object({ results: z.array(NeedlboxSource) });

export const tags = defineDomain({
  name: 'tags',
  endpoints: {
    userTags: endpoint({
      method: 'get',
      path: '/tag/user-tags',
      auth: true,
      response: UserTags,
      status: 200,
      summary: "The user's tags",
    }),
    createTag: endpoint({
      method: 'post',
      path: '/tags',
      auth: true,
      body: CreateTagBody,
      response: CreateTagResult,
      status: 200,
      summary: 'Create a tag (the existing one of that name when there is one)',
    }),
    deleteTag: endpoint({
      method: 'post',
      path: '/tag/delete',
      auth: true,
      body: DeleteTagBody,
      response: DeleteTagResult,
      status: 200,
      summary: 'Delete a tag and its links',
    }),
    tagLinks: endpoint({
      method: 'get',
      path: '/tag/links',
      auth: true,
      query: TagLinksQuery,
      response: TagLinks,
      status: 200,
      summary: "The user's document-tag links, by cursor",
    }),
    renameTag: endpoint({
      method: 'post',
      path: '/tag/rename',
      auth: true,
      body: RenameTagBody,
      response: RenameTagResult,
      status: 200,
      summary: 'Rename a tag (the Tags Manager)',
    }),
    mergeTags: endpoint({
      method: 'post',
      path: '/tag/merge',
      auth: true,
      body: MergeTagsBody,
      response: MergeTagsResult,
      status: 200,
      summary: 'Merge a tag into another: its documents carry the other, and it goes',
    }),
    documentTags: endpoint({
      method: 'get',
      path: '/tag/{id}',
      auth: true,
      query: DocumentTagsQuery,
      response: DocumentTagsResult,
      status: 200,
      summary: "A document's tags",
    }),
    setDocumentTags: endpoint({
      method: 'post',
      path: '/tag/{id}',
      auth: true,
      body: SetDocumentTagsBody,
      response: SetDocumentTagsResult,
      status: 200,
      summary: "Set a document's user tags",
    }),
    needlboxSources: endpoint({
      method: 'get',
      path: '/source/needlbox',
      auth: true,
      response: NeedlboxSources,
      status: 200,
      summary: "The needlbox's sources (bookmarks, tags) with their counts",
    }),
  },
  ops: {
    /** The user's tags, from the mirror (pulled once, then kept by the change feed). */
    'tags.list': op(z.object({}).strict(), z.array(Tag)),
    /** Optimistic with rollback (002 §4). */
    'tags.create': op(z.object({ id: id('id'), tag: tagName }).strict(), z.void()),
    'tags.delete': op(DeleteTagBody, z.void()),
    /** The Tags Manager, optimistic with rollback. */
    'tags.rename': op(RenameTagBody, z.void()),
    'tags.merge': op(MergeTagsBody, z.void()),
    /** How many documents carry each tag (tag id to count), from the mirror. */
    'tags.counts': op(z.object({}).strict(), z.record(z.string(), z.number().int())),
    /** Each document's user tag ids, from the mirror. */
    'tags.ofDocuments': op(
      z.object({ deeplinks: z.array(id('deeplinks[]')).max(500) }),
      z.record(z.string(), z.array(z.string())),
    ),
    /** Optimistic with rollback: the document's tags become exactly `tag_ids`. */
    'tags.setDocument': op(
      z
        .object({
          deeplink: id('deeplink'),
          tag_ids: SetDocumentTagsBody.shape.tags,
          create: SetDocumentTagsBody.shape.create,
          /** The document's card, when the tab has it: the tag pages list it at once, offline too. */
          card: ResultCard.optional(),
        })
        .strict(),
      z.void(),
    ),
    /** The documents carrying `tag_id` (or any tag but the bookmark when absent), from the mirror. */
    'tags.documents': op(
      z.object({ tag_id: id('tag_id').optional(), limit: z.number().int().min(1).max(5000) }),
      z.array(z.string()),
    ),
    /**
     * A window of a tag page (`tag_id`, or any tag but the bookmark when absent), newest
     * document first, from the mirror's (tag, time) index: any depth costs the distance walked.
     */
    'tags.window': op(
      z
        .object({
          tag_id: id('tag_id').optional(),
          offset: z.number().int().min(0),
          count: z.number().int().min(1).max(500),
        })
        .strict(),
      z.object({ offset: z.number().int(), rows: z.array(TagRow), total: z.number().int() }),
    ),
  },
  changes: { tag: Tag, document_tags: TagLink, tag_merge: TagMerge },
  stores: ['tags', 'document_tags'],
});
