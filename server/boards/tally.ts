import type { ResultCard } from '../../contract/documents';
import type { Db } from '../db/schema';
import { CARD_COLUMNS, toCard, type CardRow } from '../documents';
import { scanDocuments } from './scan';
import { readSourceIds } from './build';
import type { CompiledDefinition } from './match';

/**
 * Definitions evaluated over what a user follows without writing a feed: a preview, and the
 * counts behind AI proposals and suggestions. One pass over the documents serves any number of
 * definitions.
 */

export type Tally = {
  count: number;
  /** Matches per source id. */
  bySource: Map<string, number>;
  /** The newest matches (id and date), newest first, at most `keep`. */
  newest: Array<{ id: string; unix: number }>;
};

export type TallyOptions = {
  /** Keep this many newest matches per definition (preview). */
  keep?: number;
  /** Read only the newest this many documents (proposals over a very large feed). */
  newest?: number;
};

export async function tally(
  db: Db,
  userId: string,
  queries: CompiledDefinition[],
  opts: TallyOptions = {},
): Promise<Tally[]> {
  const out: Tally[] = queries.map(() => ({ count: 0, bySource: new Map(), newest: [] }));
  if (queries.length === 0) return out;
  const followed = await readSourceIds(db, userId, { sources: null });
  const keep = opts.keep ?? 0;
  for await (const chunk of scanDocuments(db, {
    userId,
    sourceIds: followed,
    newest: opts.newest,
  })) {
    for (const doc of chunk) {
      queries.forEach((query, i) => {
        if (query.sources && !query.sources.has(doc.source_id)) return;
        if (!query.matches(doc)) return;
        const t = out[i];
        t.count++;
        t.bySource.set(doc.source_id, (t.bySource.get(doc.source_id) ?? 0) + 1);
        if (keep) {
          t.newest.push({ id: doc.id, unix: doc.unix });
          if (t.newest.length > keep * 4) trim(t, keep);
        }
      });
    }
  }
  for (const t of out) trim(t, keep);
  return out;
}

const trim = (t: Tally, keep: number) => {
  t.newest.sort((a, b) => b.unix - a.unix || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  t.newest.length = Math.min(t.newest.length, keep);
};

/** Cards of documents by id, in the order given. */
export async function cardsOf(db: Db, ids: string[]): Promise<ResultCard[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select([...CARD_COLUMNS])
    .where('d.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, toCard(r as CardRow)]));
  return ids.map((id) => byId.get(id)).filter((c): c is ResultCard => c !== undefined);
}
