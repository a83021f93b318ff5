import { sql } from 'kysely';
import type { Db, DialectName } from '../db/schema';
import { inTransaction } from '../db/tx';
import { iso } from '../time';
import type { SourceToRead } from './read';
import { NETWORK_KINDS } from './schedule';
import './tables';

/**
 * The durable job rows (ingest_jobs): one per network source, claimed with a lease so several
 * server processes share them without running one twice. A claim is atomic:
 * - PostgreSQL: `SELECT ... FOR UPDATE SKIP LOCKED` picks due jobs no other transaction holds,
 *   and the lease is written in the same transaction;
 * - SQLite (one writer at a time): one `UPDATE ... WHERE source_id IN (due) RETURNING`.
 * A worker that dies keeps its lease only until `lease_until`; then another takes the job.
 * Completion is fenced: it updates the row only while this owner still holds the lease, else
 * the transaction (the documents with it) rolls back.
 */

export type ClaimedJob = {
  source: SourceToRead;
  etag: string | null;
  lastModified: string | null;
  attempts: number;
};

/** A due job that is free (never leased, or its lease lapsed) and whose source someone follows. */
const dueIds = (db: Db, at: string, limit: number) =>
  db
    .selectFrom('ingest_jobs as j')
    .select('j.source_id')
    .where('j.run_at', '<=', at)
    .where((eb) => eb.or([eb('j.lease_until', 'is', null), eb('j.lease_until', '<', at)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('source_follows as f')
          .select('f.user_id')
          .whereRef('f.source_id', '=', 'j.source_id'),
      ),
    )
    .orderBy('j.run_at')
    .limit(limit);

export async function claimJobs(
  db: Db,
  dialect: DialectName,
  opts: { owner: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedJob[]> {
  if (opts.limit <= 0) return [];
  const at = iso(opts.now);
  const lease = {
    lease_owner: opts.owner,
    lease_until: iso(opts.now + opts.leaseMs),
    state: 'running' as const,
  };
  const ids =
    dialect === 'postgres'
      ? await inTransaction(db, async (trx) => {
          const rows = await dueIds(trx, at, opts.limit).forUpdate().skipLocked().execute();
          const picked = rows.map((r) => r.source_id);
          if (picked.length === 0) return [];
          await trx
            .updateTable('ingest_jobs')
            .set(lease)
            .where('source_id', 'in', picked)
            .execute();
          return picked;
        })
      : (
          await db
            .updateTable('ingest_jobs')
            .set(lease)
            .where('source_id', 'in', dueIds(db, at, opts.limit))
            .returning('source_id')
            .execute()
        ).map((r) => r.source_id);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('ingest_jobs as j')
    .innerJoin('sources as s', 's.id', 'j.source_id')
    .select([
      's.id',
      's.key',
      's.kind',
      's.url',
      's.site_url',
      's.category_tab',
      's.market',
      'j.etag',
      'j.last_modified',
      'j.attempts',
    ])
    .where('j.source_id', 'in', ids)
    .execute();
  return rows.map((r) => ({
    source: {
      id: r.id,
      key: r.key,
      kind: r.kind,
      url: r.url,
      site_url: r.site_url,
      category_tab: r.category_tab,
      market: r.market,
    },
    etag: r.etag,
    lastModified: r.last_modified,
    attempts: r.attempts,
  }));
}

export class LeaseLost extends Error {
  constructor(sourceId: string) {
    super(`the lease on ${sourceId} was taken over by another runner`);
  }
}

/** Writes the job's next state if `owner` still holds it; throws LeaseLost otherwise. */
export async function updateLeasedJob(
  db: Db,
  sourceId: string,
  owner: string,
  values: Partial<{
    state: 'pending' | 'ok' | 'error' | 'running';
    run_at: string;
    lease_owner: string | null;
    lease_until: string | null;
    attempts: number;
    etag: string | null;
    last_modified: string | null;
    last_run_at: string;
    last_error: string | null;
    last_new: number;
  }>,
): Promise<void> {
  const res = await db
    .updateTable('ingest_jobs')
    .set(values)
    .where('source_id', '=', sourceId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new LeaseLost(sourceId);
}

/**
 * Gives every followed network source a job (a source followed before its job existed, or
 * followed by the seed): due now. Jobs of sources nobody follows stay, unclaimed.
 */
export async function ensureJobs(db: Db, now: number): Promise<number> {
  const at = iso(now);
  const res = await db
    .insertInto('ingest_jobs')
    .columns(['source_id', 'state', 'run_at', 'attempts', 'last_new', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('sources as s')
        .select([
          's.id',
          sql.lit('pending').as('state'),
          sql.val(at).as('run_at'),
          sql.lit(0).as('attempts'),
          sql.lit(0).as('last_new'),
          sql.val(at).as('created_at'),
        ])
        .where('s.kind', 'in', [...NETWORK_KINDS])
        .where('s.url', 'is not', null)
        .where((w) =>
          w.and([
            w.exists(
              w
                .selectFrom('source_follows as f')
                .select('f.user_id')
                .whereRef('f.source_id', '=', 's.id'),
            ),
            w.not(
              w.exists(
                w
                  .selectFrom('ingest_jobs as j')
                  .select('j.source_id')
                  .whereRef('j.source_id', '=', 's.id'),
              ),
            ),
          ]),
        ),
    )
    .onConflict((oc) => oc.column('source_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0);
}
