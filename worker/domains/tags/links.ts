import type { ResultCard } from '../../../contract/documents';
import {
  BOOKMARK_TAG_ID,
  type DocumentTags,
  type TagMerge,
  type tags,
} from '../../../contract/tags';
import type { Mirror, PatchItem } from '../../mirror';
import type { StoreOf } from '../../registry';

/**
 * The mirrored links of documents to tags ('document_tags'): each record keeps the document's
 * tags, its card when known, and its tag-page keys in BY_TAG_TIME; the writes that make them.
 */

type S = StoreOf<typeof tags>;

export const TAGS = 'tags' satisfies S;
export const LINKS = 'document_tags' satisfies S;
export const BY_TAG = 'by_tag';
export const BY_TAG_TIME = 'by_tag_time';
/** The key of "any tag but the bookmark" in BY_TAG_TIME (/needlbox/tags/all); never an id. */
export const ANY_TAG = '\u0000any';
/** Documents one tag's removal unlinks in the mirror, at most (an IndexedDB count). */
const UNLINK_SCAN = 1_000_000;

/** A mirrored link: the document's tags, its card when known, and its tag-page index keys. */
export type LinkRecord = DocumentTags & {
  card?: ResultCard;
  k_tag: Array<[string, number, string]>;
};

/**
 * A document's record as written: its tags sorted and unique, its card (when known) and its
 * tag-page keys (a document without a card sorts last, at time 0); no tags deletes the record.
 */
export const linkWrite = (
  deeplink: string,
  tagIds: readonly string[],
  card: ResultCard | undefined,
): PatchItem<S> => {
  const ids = [...new Set(tagIds)].sort();
  if (ids.length === 0) return { store: LINKS, key: deeplink };
  const unix = card?.unix ?? 0;
  const keys = ids.map((t): [string, number, string] => [t, unix, deeplink]);
  if (ids.some((t) => t !== BOOKMARK_TAG_ID)) keys.push([ANY_TAG, unix, deeplink]);
  const record: LinkRecord = { deeplink, tag_ids: ids, ...(card ? { card } : {}), k_tag: keys };
  return { store: LINKS, key: deeplink, value: record };
};

/** Whether two lists of tag ids hold the same tags. */
export const sameTags = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((t) => y.has(t));
};

/** The mirrored links of every document carrying `tagId`. */
const linksCarrying = (mirror: Mirror<S>, tagId: string) =>
  mirror.transact([LINKS], (tx) =>
    tx.indexRange<LinkRecord>(LINKS, BY_TAG, { lower: tagId, upper: tagId }, UNLINK_SCAN),
  );

/** The writes that take `tagId` off every mirrored document carrying it. */
export async function unlinkWrites(mirror: Mirror<S>, tagId: string): Promise<PatchItem<S>[]> {
  const carrying = await linksCarrying(mirror, tagId);
  return carrying.map((link) =>
    linkWrite(
      link.deeplink,
      link.tag_ids.filter((t) => t !== tagId),
      link.card,
    ),
  );
}

/** The writes that move every mirrored document carrying `from` to `into` (the Tags Manager's merge). */
export async function mergeWrites(
  mirror: Mirror<S>,
  { from, into }: TagMerge,
): Promise<PatchItem<S>[]> {
  const carrying = await linksCarrying(mirror, from);
  return [
    { store: TAGS, key: from },
    ...carrying.map((link) =>
      linkWrite(
        link.deeplink,
        link.tag_ids.map((t) => (t === from ? into : t)),
        link.card,
      ),
    ),
  ];
}
