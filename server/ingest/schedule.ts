import type { IngestionStatus } from '../../contract/sources';
import type { Db } from '../db/schema';
import { iso } from '../time';
import './tables';

/** Source kinds read from the network; built-in content has no job. */
export const NETWORK_KINDS = ['rss', 'website', 'filings'] as const;

/**
 * Makes the source's job due now (creating it), so a newly followed source is fetched by the
 * runner's next tick (within a few seconds). A job a runner holds keeps its lease; its next run
 * is simply due at once. Built-in sources and sources without an address have no job.
 */
export async function scheduleSoon(db: Db, sourceId: string, now: number): Promise<void> {
  const source = await db
    .selectFrom('sources')
    .select(['kind', 'url'])
    .where('id', '=', sourceId)
    .executeTakeFirst();
  if (!source || source.kind === 'builtin' || !source.url) return;
  const at = iso(now);
  await db
    .insertInto('ingest_jobs')
    .values({
      source_id: sourceId,
      state: 'pending',
      run_at: at,
      attempts: 0,
      last_new: 0,
      created_at: at,
    })
    .onConflict((oc) => oc.column('source_id').doUpdateSet({ run_at: at, attempts: 0 }))
    .execute();
}

/**
 * Each source's ingestion status (contract IngestionStatus). A source without a job is 'ok'
 * when built in (its documents are counted) and 'pending' otherwise (not fetched yet).
 */
export async function ingestionStatus(
  db: Db,
  sourceIds: string[],
): Promise<Map<string, IngestionStatus>> {
  const out = new Map<string, IngestionStatus>();
  if (sourceIds.length === 0) return out;
  const ids = [...new Set(sourceIds)];
  const [sources, jobs, counts] = await Promise.all([
    db.selectFrom('sources').select(['id', 'kind']).where('id', 'in', ids).execute(),
    db.selectFrom('ingest_jobs').selectAll().where('source_id', 'in', ids).execute(),
    db
      .selectFrom('documents')
      .select(['source_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('source_id', 'in', ids)
      .groupBy('source_id')
      .execute(),
  ]);
  const kindOf = new Map(sources.map((s) => [s.id, s.kind]));
  const jobOf = new Map(jobs.map((j) => [j.source_id, j]));
  const itemsOf = new Map(counts.map((c) => [c.source_id, Number(c.n)]));
  for (const id of ids) {
    const job = jobOf.get(id);
    const items = itemsOf.get(id) ?? 0;
    if (!job) {
      out.set(id, {
        state: kindOf.get(id) === 'builtin' ? 'ok' : 'pending',
        last_run_at: null,
        next_run_at: null,
        items,
        last_new: 0,
        last_error: null,
      });
      continue;
    }
    out.set(id, {
      state: job.state,
      last_run_at: job.last_run_at,
      next_run_at: job.run_at,
      items,
      last_new: job.last_new,
      last_error: job.last_error,
    });
  }
  return out;
}
