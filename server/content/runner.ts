import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { SourceKind } from '../../contract/sources';
import type { Database, DialectName } from '../db/schema';
import { lockContent, type IncomingDocument } from '../documents';
import { insertDocuments } from './store';
import { iso } from '../time';
import {
  LeaseLost,
  claimJobs,
  describeError,
  ensureJobs,
  filingsPreset,
  readSource,
  updateLeasedJob,
  yieldToLoop,
  type ClaimedJob,
  type FetchOptions,
} from '../ingest';

/**
 * The ingestion runner: every `intervalMs` it claims due jobs (jobs.ts: leases, so several
 * servers on one database share them) and runs up to `concurrency` at once. A job reads its
 * source (read.ts) and stores what is new as it is read: a long feed arrives a piece at a time
 * and is stored in batches of `batchSize`, each its own transaction renewing the lease, with
 * a turn of the event loop before each (on SQLite a batch holds the loop), so a 35,000-item
 * feed never holds the server; then the job's validators and next run commit.
 * A crash loses nothing: the uncommitted part is read again when the lease lapses, and
 * UNIQUE (source_id, dedupe_key) makes re-reading what was committed a no-op. A batch the
 * database refuses is stored item by item instead, so one item it will not take (logged and
 * skipped) never holds back the others. A failure backs off (1 min, doubling, at most 6 h)
 * and records why in words a user understands.
 *
 * Each transaction starts by taking the content counter's lock (documents/sequence.ts): the
 * order every content writer keeps on PostgreSQL, and on SQLite a write first, so a second
 * process waits for the lock instead of failing on a stale read snapshot.
 */
export type IngestRunnerOptions = {
  db: Kysely<Database>;
  dialect: DialectName;
  now: () => number;
  log: (line: string) => void;
  /** This runner's name in lease_owner; unique per process by default. */
  owner?: string;
  /** How often due jobs are looked for (default 1 s). */
  intervalMs?: number;
  /** Jobs run at once (default 4). */
  concurrency?: number;
  /** How long a claim holds before another runner may take the job (default 60 s). */
  leaseMs?: number;
  /**
   * Documents per transaction (default 50). Storing one costs a few milliseconds of the event
   * loop (sanitising, indexing; on SQLite the statements too), so a batch is kept short: the
   * loop turns between batches and other requests are answered meanwhile.
   */
  batchSize?: number;
  /** Outbound fetch settings (allowPrivate, limits, user agent). */
  fetch?: FetchOptions;
  /** PRESET_BASE_URL: filings presets are read from `${presetBaseUrl}/${key}` (read.ts). */
  presetBaseUrl?: string;
  /** Poll interval per source kind (default rss 15 min, website 30 min, filings per preset). */
  pollMs?: Partial<Record<SourceKind, number>>;
};

export type IngestRunner = {
  /** Starts ticking. */
  start(): void;
  /** Stops ticking, aborts fetches in flight, waits for running jobs to settle. */
  stop(): Promise<void>;
  /** Runs every due job now (claiming as usual) until none is due; answers how many ran. */
  runDue(): Promise<number>;
};

const MINUTE = 60_000;
const DEFAULT_POLL: Record<SourceKind, number> = {
  rss: 15 * MINUTE,
  website: 30 * MINUTE,
  filings: 15 * MINUTE,
  builtin: 24 * 60 * MINUTE,
};
const MAX_BACKOFF = 6 * 60 * MINUTE;
const ENSURE_EVERY_MS = 30_000;

export const backoffMs = (attempts: number): number =>
  Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF);

export const createIngestRunner = (opts: IngestRunnerOptions): IngestRunner => {
  const { db, dialect, now, log } = opts;
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = opts.concurrency ?? 4;
  const leaseMs = opts.leaseMs ?? 60_000;
  const batchSize = opts.batchSize ?? 50;
  const abort = new AbortController();
  const inflight = new Set<Promise<void>>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let ticking = false;
  let lastEnsure = -Infinity;
  let stopping = false;

  const pollOf = (job: ClaimedJob) => {
    const preset = job.source.kind === 'filings' ? filingsPreset(job.source.key) : undefined;
    return (
      opts.pollMs?.[job.source.kind] ??
      (preset ? preset.pollMinutes * MINUTE : DEFAULT_POLL[job.source.kind])
    );
  };

  type JobState = Parameters<typeof updateLeasedJob>[3];
  const renewLease = (t: number): JobState => ({ lease_until: iso(t + leaseMs) });

  /** Skipped items named in the log per job; past that, a count. */
  const SKIPS_LOGGED = 5;

  /**
   * Stores one batch and writes `state` on the job (a renewed lease, or the job's outcome) in
   * one transaction. When the database refuses the batch, its items are stored one by one,
   * each with a renewed lease, and those it refuses are skipped and logged: unless it refuses
   * every one and the job has stored nothing yet (more likely the database than the items),
   * when the first error is the job's. Answers the documents added.
   */
  const storeBatch = async (
    job: ClaimedJob,
    items: IncomingDocument[],
    baseUrl: string,
    state: (t: number, added: number) => JobState,
    run: { stored: number; skipped: number },
  ): Promise<number> => {
    const id = job.source.id;
    /** `values` is told the time and the documents this batch added (plus `before`). */
    const write = (
      batch: IncomingDocument[],
      values: (t: number, added: number) => JobState,
      before = 0,
    ) =>
      db.transaction().execute(async (trx) => {
        await lockContent(trx);
        const t = now();
        const added =
          batch.length > 0
            ? (await insertDocuments(trx, id, batch, { now: t, baseUrl })).inserted
            : 0;
        await updateLeasedJob(trx, id, owner, values(t, before + added));
        return added;
      });
    // On SQLite a batch runs synchronously: let requests in between batches.
    await yieldToLoop();
    try {
      const added = await write(items, state);
      run.stored += items.length;
      return added;
    } catch (err) {
      if (err instanceof LeaseLost || stopping || items.length === 0) throw err;
      let added = 0;
      let refused = 0;
      for (const item of items) {
        if (stopping) throw new Error('stopping');
        await yieldToLoop();
        try {
          added += await write([item], renewLease);
          run.stored++;
        } catch (itemErr) {
          if (itemErr instanceof LeaseLost) throw itemErr;
          refused++;
          if (run.skipped++ < SKIPS_LOGGED) {
            log(
              `ingest ${id}: skipped item ${JSON.stringify(item.dedupe_key)}: ${String(itemErr)}`,
            );
          }
        }
      }
      if (refused === items.length && run.stored === 0) throw err;
      await write([], state, added);
      return added;
    }
  };

  const runJob = async (job: ClaimedJob): Promise<void> => {
    const id = job.source.id;
    try {
      const outcome = await readSource(job.source, {
        now: now(),
        etag: job.etag,
        lastModified: job.lastModified,
        fetch: { ...opts.fetch, signal: abort.signal },
        presetBaseUrl: opts.presetBaseUrl,
      });
      const run = { stored: 0, skipped: 0 };
      let added = 0;
      if (outcome.status === 'ok') {
        // Each batch stored as soon as it is read: a document lives from its piece's reading
        // to its transaction, never across the next piece.
        for await (const batch of outcome.batches) {
          for (let i = 0; i < batch.length; i += batchSize) {
            if (stopping) throw new Error('stopping');
            const part = batch.slice(i, i + batchSize);
            added += await storeBatch(job, part, outcome.baseUrl, renewLease, run);
          }
        }
      }
      if (run.skipped > SKIPS_LOGGED) {
        log(`ingest ${id}: skipped ${run.skipped} items the database refused`);
      }
      // The outcome once every document is stored: the validators are kept only now, so a run
      // cut short reads the whole feed again.
      await storeBatch(
        job,
        [],
        '',
        (t) => ({
          state: 'ok',
          run_at: iso(t + pollOf(job)),
          lease_owner: null,
          lease_until: null,
          attempts: 0,
          ...(outcome.status === 'ok'
            ? { etag: outcome.etag, last_modified: outcome.lastModified }
            : {}),
          last_run_at: iso(t),
          last_error: null,
          last_new: added,
        }),
        run,
      );
    } catch (err) {
      if (err instanceof LeaseLost) {
        log(`ingest: ${err.message}; its run is dropped`);
        return;
      }
      const t = now();
      if (stopping) {
        // Shutting down: hand the job back untouched, due at once for whoever runs next.
        await updateLeasedJob(db, id, owner, {
          state: 'pending',
          lease_owner: null,
          lease_until: null,
        }).catch(() => {});
        return;
      }
      const message = describeError(err);
      if (message.includes('internal error')) log(`ingest ${id} failed: ${String(err)}`);
      const attempts = job.attempts + 1;
      await updateLeasedJob(db, id, owner, {
        state: 'error',
        run_at: iso(t + backoffMs(attempts)),
        lease_owner: null,
        lease_until: null,
        attempts,
        last_run_at: iso(t),
        last_error: message,
        last_new: 0,
      }).catch((e: unknown) => log(`ingest ${id}: could not record the failure: ${String(e)}`));
    }
  };

  const track = (p: Promise<void>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    return p;
  };

  const claim = async (limit: number) => {
    if (now() - lastEnsure >= ENSURE_EVERY_MS) {
      lastEnsure = now();
      await ensureJobs(db, now());
    }
    return claimJobs(db, dialect, { owner, now: now(), leaseMs, limit });
  };

  const tick = async () => {
    if (ticking || stopping) return;
    ticking = true;
    try {
      const jobs = await claim(concurrency - inflight.size);
      for (const job of jobs) track(runJob(job));
    } catch (err) {
      if (!stopping) log(`ingest: could not claim jobs: ${String(err)}`);
    } finally {
      ticking = false;
    }
  };

  return {
    start() {
      if (timer || stopping) return;
      timer = setInterval(() => void tick(), opts.intervalMs ?? 1000);
      timer.unref();
      void tick();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      abort.abort();
      await Promise.allSettled([...inflight]);
    },
    async runDue() {
      let ran = 0;
      lastEnsure = -Infinity;
      for (let round = 0; round < 1000 && !stopping; round++) {
        const jobs = await claim(concurrency);
        if (jobs.length === 0) break;
        await Promise.all(jobs.map((job) => track(runJob(job))));
        ran += jobs.length;
      }
      return ran;
    },
  };
};
