import { isSafeImage } from '../../contract/documents';
import type { Source } from '../../contract/sources';
import type { Database, Db } from '../db/schema';
import { ingestionStatus } from '../ingest';
import './tables';

/**
 * Reads of sources, always through what the user may see: public sources (catalogue presets
 * and built-ins) and the user's own. Someone else's private source does not exist for them.
 */

type SourceRow = Database['sources'];
export type VisibleRow = SourceRow & { followed: number; priority: number };

/** Sources the user may see, with their follow (left join); narrow it with `where`. */
export const visibleSources = (db: Db, userId: string) =>
  db
    .selectFrom('sources as s')
    .leftJoin('source_follows as f', (join) =>
      join.onRef('f.source_id', '=', 's.id').on('f.user_id', '=', userId),
    )
    .selectAll('s')
    .select((eb) => [
      eb.case().when('f.user_id', 'is not', null).then(1).else(0).end().as('followed'),
      eb.fn.coalesce('f.priority', eb.lit(0)).as('priority'),
    ])
    .where((eb) => eb.or([eb('s.public', '=', 1), eb('s.owner_user_id', '=', userId)]));

/** The rows as the contract's Source, each with its ingestion status. */
export async function toSources(db: Db, rows: VisibleRow[]): Promise<Source[]> {
  const status = await ingestionStatus(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    source_id: r.id,
    key: r.key,
    label: r.label,
    category: r.category,
    category_tab: r.category_tab,
    market: r.market,
    group: r.grp,
    kind: r.kind,
    link_to_crawl: r.url,
    value: r.site_url,
    thumbnail_location: isSafeImage(r.thumbnail) ? r.thumbnail : null,
    flag: r.flag,
    public: r.public === 1,
    followed: Number(r.followed) === 1,
    priority: Number(r.priority) === 1,
    status: status.get(r.id) ?? {
      state: 'pending',
      last_run_at: null,
      next_run_at: null,
      items: 0,
      last_new: 0,
      last_error: null,
    },
  }));
}

/** One source the user may see, by key or id; undefined otherwise. */
export const findVisible = async (
  db: Db,
  userId: string,
  keyOrId: string,
): Promise<VisibleRow | undefined> =>
  (await visibleSources(db, userId)
    .where((eb) => eb.or([eb('s.key', '=', keyOrId), eb('s.id', '=', keyOrId)]))
    .executeTakeFirst()) as VisibleRow | undefined;

/** One source as the contract's Source (after a follow or a priority change). */
export async function sourceFor(db: Db, userId: string, sourceId: string): Promise<Source> {
  const row = await findVisible(db, userId, sourceId);
  if (!row) throw new Error(`sourceFor: source ${sourceId} is not visible to its user`);
  return (await toSources(db, [row]))[0];
}

/** Catalogue order: grouped sources by group, then by title. */
const byGroupAndLabel = (a: VisibleRow, b: VisibleRow) =>
  (a.grp ?? '').localeCompare(b.grp ?? '') || a.label.localeCompare(b.label);

/** Every source the user may see, in catalogue order. */
export const allVisible = async (db: Db, userId: string): Promise<VisibleRow[]> =>
  ((await visibleSources(db, userId).execute()) as VisibleRow[]).sort(byGroupAndLabel);

/** The sources the user follows, priority ones first. */
export const followedRows = async (db: Db, userId: string): Promise<VisibleRow[]> =>
  ((await visibleSources(db, userId).where('f.user_id', 'is not', null).execute()) as VisibleRow[])
    .sort(byGroupAndLabel)
    .sort((a, b) => Number(b.priority) - Number(a.priority));
