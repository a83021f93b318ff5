import type { MatchDoc } from './match';
import type { Db } from '../db/schema';

/** A document as a feed query reads it, with what an entry needs. */
export type ScannedDoc = MatchDoc & { id: string; seq: number };

export type ScanScope = {
  /** Whose view: documents owned by someone else are never read. */
  userId: string;
  sourceIds: readonly string[];
  /** Published in [from, to), unix seconds. */
  from?: number | null;
  to?: number | null;
  /** At most this many, newest first (else every one, oldest first). */
  newest?: number;
};

const CHUNK = 1000;

/**
 * The documents of some sources that a user may see, in chunks of 1000 read by keyset on the
 * global sequence, so a feed over a large corpus is built without holding it in memory.
 */
export async function* scanDocuments(db: Db, scope: ScanScope): AsyncGenerator<ScannedDoc[]> {
  if (scope.sourceIds.length === 0) return;
  const newestFirst = scope.newest !== undefined;
  let left = scope.newest ?? Number.POSITIVE_INFINITY;
  let last: number | null = null;
  while (left > 0) {
    let q = db
      .selectFrom('documents')
      .select([
        'id',
        'seq',
        'unix',
        'title',
        'plain_text',
        'source_id',
        'source_key',
        'company_name',
        'category',
        'secondary_category',
        'categories',
        'category_tab',
        'market',
      ])
      .where('source_id', 'in', [...scope.sourceIds])
      .where((eb) =>
        eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', scope.userId)]),
      );
    if (scope.from != null) q = q.where('unix', '>=', scope.from);
    if (scope.to != null) q = q.where('unix', '<', scope.to);
    if (last !== null) q = q.where('seq', newestFirst ? '<' : '>', last);
    const rows = await q
      .orderBy('seq', newestFirst ? 'desc' : 'asc')
      .limit(Math.min(CHUNK, left))
      .execute();
    if (rows.length === 0) return;
    left -= rows.length;
    last = Number(rows[rows.length - 1].seq);
    yield rows.map((r) => ({
      ...r,
      seq: Number(r.seq),
      unix: Number(r.unix),
      categories: parseList(r.categories),
    }));
    if (rows.length < CHUNK) return;
  }
}

const parseList = (json: string): string[] => {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};
