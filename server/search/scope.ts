import { HOME_BOARD } from '../../contract/boards';
import { SEARCH_TYPE_SHARED, webSearchType } from '../../contract/search';
import { resolveFeed } from '../boards';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { findVisible } from '../catalogue';
import type { SearchScope } from './engine';

/**
 * What a search may read, decided here and nowhere else (issue 7 "Scope"). Every search, tag
 * and exchange call builds its scope with `searchScope`; the engine then also refuses any
 * document the viewer may not see (someone else's, or from someone else's private source),
 * whatever the parts below say.
 *
 * One part answers, the most specific first:
 * - `/search/{source}`: that source, which the user must be able to see (else 404);
 * - `channel_id` or `search_type: shared_data`: the user's groups' shared items;
 * - `board_id`: that feed's documents (`home`: every followed source), the user's own (else 404);
 * - `search_type: {product}_web`: the public corpus (every public source, followed or not);
 * - nothing: "My Data", what the user follows (their home feed's sources) and what they own.
 */
export type ScopeRequest = {
  board_id?: string;
  channel_id?: string;
  search_type?: string;
  /** The `{source}` of /search/{source}: a source key or id. */
  source?: string;
};

const empty = (viewerId: string): SearchScope => ({
  viewerId,
  feeds: [],
  sourceIds: [],
  publicCorpus: false,
  ownedBy: null,
});

const bad = (path: string, message: string) =>
  new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);

export async function searchScope(
  db: Db,
  viewer: { userId: string; product: string },
  req: ScopeRequest,
): Promise<SearchScope> {
  const { userId, product } = viewer;
  const web = webSearchType(product);
  if (req.search_type && req.search_type !== web && req.search_type !== SEARCH_TYPE_SHARED) {
    throw bad('search_type', `search_type must be ${web} or ${SEARCH_TYPE_SHARED}`);
  }
  if (req.source !== undefined) {
    const source = await findVisible(db, userId, req.source);
    if (!source) throw new ApiError(404, 'not_found', `no such source: ${req.source}`);
    return { ...empty(userId), sourceIds: [source.id] };
  }
  if (req.channel_id !== undefined || req.search_type === SEARCH_TYPE_SHARED) {
    // Groups (channels) arrive in a later issue: they add their members' shared feeds and
    // sources here (and a channel_id that is not one of the user's groups becomes a 404).
    // Until then a user belongs to no group, so their groups share nothing.
    return empty(userId);
  }
  if (req.board_id === HOME_BOARD)
    return { ...empty(userId), sourceIds: await followed(db, userId) };
  if (req.board_id !== undefined) {
    return { ...empty(userId), feeds: [(await resolveFeed(db, userId, req.board_id)).feedId] };
  }
  if (req.search_type === web) return { ...empty(userId), publicCorpus: true };
  return { ...empty(userId), sourceIds: await followed(db, userId), ownedBy: userId };
}

/**
 * The sources a user follows. The home feed (`home:<user>`) holds exactly their documents
 * (following adds a source's documents, unfollowing removes them), and the engine checks a
 * source list about twice as fast as a feed's entries.
 */
const followed = async (db: Db, userId: string): Promise<string[]> =>
  (
    await db
      .selectFrom('source_follows')
      .select('source_id')
      .where('user_id', '=', userId)
      .orderBy('source_id')
      .execute()
  ).map((r) => r.source_id);
