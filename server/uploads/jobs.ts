import type { Db, DialectName } from '../db/schema';
import { inTransaction } from '../db/tx';
import { iso } from '../time';
import type { FileRow } from './files';
import './tables';

/**
 * The processing jobs are the upload_files rows in status PROCESSING, claimed with a lease as
 * ingestion's jobs are (ingest/jobs.ts): PostgreSQL `FOR UPDATE SKIP LOCKED`, SQLite one
 * `UPDATE ... RETURNING`. A process that dies holds its claim only until `lease_until`; then
 * another takes the file. Every later write is fenced on the lease (`lease_owner`), so a run
 * that lost its claim changes nothing.
 */

const due = (db: Db, at: string, limit: number) =>
  db
    .selectFrom('upload_files')
    .select('key')
    .where('status', '=', 'PROCESSING')
    .where('run_at', '<=', at)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .orderBy('run_at')
    .limit(limit);

export async function claimUploads(
  db: Db,
  dialect: DialectName,
  opts: { owner: string; now: number; leaseMs: number; limit: number },
): Promise<FileRow[]> {
  if (opts.limit <= 0) return [];
  const at = iso(opts.now);
  const lease = { lease_owner: opts.owner, lease_until: iso(opts.now + opts.leaseMs) };
  if (dialect === 'postgres') {
    return inTransaction(db, async (trx) => {
      const keys = (await due(trx, at, opts.limit).forUpdate().skipLocked().execute()).map(
        (r) => r.key,
      );
      if (keys.length === 0) return [];
      return trx
        .updateTable('upload_files')
        .set(lease)
        .where('key', 'in', keys)
        .returningAll()
        .execute();
    });
  }
  return db
    .updateTable('upload_files')
    .set(lease)
    .where('key', 'in', due(db, at, opts.limit))
    .returningAll()
    .execute();
}

export class LeaseLost extends Error {
  constructor(key: string) {
    super(`the lease on upload ${key} was taken over by another runner`);
  }
}

/** Writes the file's next state if `owner` still holds its lease; throws LeaseLost otherwise. */
export async function updateLeased(
  db: Db,
  key: string,
  owner: string,
  values: Partial<FileRow>,
): Promise<void> {
  const res = await db
    .updateTable('upload_files')
    .set(values)
    .where('key', '=', key)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'PROCESSING')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new LeaseLost(key);
}
