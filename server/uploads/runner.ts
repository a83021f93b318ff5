import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { UPLOAD_MIME_BY_EXTENSION } from '../../contract/uploads';
import type { Database, DialectName } from '../db/schema';
import { lockContent } from '../documents';
import { extractDocument } from '../extract';
import type { FileStorage } from '../storage';
import { iso } from '../time';
import type { FileRow } from './files';
import { claimUploads, LeaseLost, updateLeased } from './jobs';
import { contentFamily, MAGIC_BYTES, WRONG_CONTENT } from './magic';
import { storeUploadedDocument } from './store';

/**
 * The processing runner: every `intervalMs` (and at once when upload complete queues files,
 * `kick`) it claims due files (jobs.ts) and processes up to `concurrency` at once: the bytes
 * from storage, the type by content (magic bytes), the text by extraction
 * (server/extract `extractDocument`), then in ONE transaction, fenced on the lease, the
 * document through the write pipeline and the status COMPLETED. So a crash at any point
 * loses nothing (the claim lapses and another run takes the file) and duplicates nothing (the
 * document and the status commit together; the document's dedupe key is the storage key).
 * A file that cannot be read ends FAILED with the reason in words; an error of ours (the
 * database, storage) is retried after 1, 2, 4 minutes, then the file FAILED with it.
 */
export type UploadRunnerOptions = {
  db: Kysely<Database>;
  dialect: DialectName;
  storage: FileStorage;
  product: string;
  now: () => number;
  log: (line: string) => void;
  owner?: string;
  intervalMs?: number;
  leaseMs?: number;
  concurrency?: number;
};

export type UploadRunner = {
  start(): void;
  stop(): Promise<void>;
  /** Looks for due files now (after upload complete). */
  kick(): void;
  /** Processes every due file now (claiming as usual) until none is due; answers how many. */
  runDue(): Promise<number>;
};

const MAX_ATTEMPTS = 3;

/** The whole file (extraction reads it whole; its size is bounded by the upload limit). */
const readAll = async (storage: FileStorage, key: string, size: number) => {
  const out = new Uint8Array(size);
  let at = 0;
  for await (const chunk of (await storage.get(key)) as AsyncIterable<Buffer>) {
    if (at + chunk.length > size) throw new Error(`stored file ${key} grew while read`);
    out.set(chunk, at);
    at += chunk.length;
  }
  return out.subarray(0, at);
};

type Outcome =
  | { ok: true; result: Extract<Awaited<ReturnType<typeof extractDocument>>, { ok: true }> }
  | { ok: false; reason: string };

/** What the file holds, or why it cannot be read (in words). */
export async function examine(storage: FileStorage, row: FileRow): Promise<Outcome> {
  const head = await storage.head(row.key);
  if (!head) return { ok: false, reason: 'the uploaded file is missing from storage' };
  if (head.size === 0) return { ok: false, reason: 'the file is empty' };
  const bytes = await readAll(storage, row.key, head.size);
  if (contentFamily(bytes.subarray(0, MAGIC_BYTES), bytes.length <= MAGIC_BYTES) === null) {
    return { ok: false, reason: WRONG_CONTENT };
  }
  let result;
  try {
    result = await extractDocument(bytes, { name: row.name, mimeType: row.mime_type });
  } catch (err) {
    return {
      ok: false,
      reason: `the file could not be read: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (!result.ok) return { ok: false, reason: result.reason };
  if (!result.passages.some((p) => p.text.trim())) {
    return { ok: false, reason: 'the file holds no text' };
  }
  return { ok: true, result };
}

export const createUploadRunner = (opts: UploadRunnerOptions): UploadRunner => {
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const intervalMs = opts.intervalMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 120_000;
  const concurrency = opts.concurrency ?? 2;
  const { db } = opts;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const running = new Set<Promise<void>>();

  const processOne = async (row: FileRow) => {
    const now = opts.now();
    try {
      const outcome = await examine(opts.storage, row);
      await db.transaction().execute(async (trx) => {
        await lockContent(trx);
        const at = iso(opts.now());
        if (!outcome.ok) {
          await updateLeased(trx, row.key, owner, {
            status: 'FAILED',
            error: outcome.reason,
            lease_owner: null,
            lease_until: null,
            run_at: null,
            updated_at: at,
          });
          return;
        }
        // Fenced first: a run that lost its claim stores nothing.
        await updateLeased(trx, row.key, owner, { updated_at: at });
        const documentId = await storeUploadedDocument(trx, {
          product: opts.product,
          userId: row.user_id,
          key: row.key,
          name: row.name,
          mimeType: UPLOAD_MIME_BY_EXTENSION[outcome.result.kind] ?? row.mime_type,
          result: outcome.result,
          now,
        });
        await updateLeased(trx, row.key, owner, {
          status: 'COMPLETED',
          document_id: documentId,
          num_pages: outcome.result.pages ?? null,
          error: null,
          lease_owner: null,
          lease_until: null,
          run_at: null,
          updated_at: at,
        });
      });
      opts.log(`upload ${row.key}: ${outcome.ok ? 'COMPLETED' : `FAILED (${outcome.reason})`}`);
    } catch (err) {
      if (err instanceof LeaseLost) {
        opts.log(err.message);
        return;
      }
      const attempts = row.attempts + 1;
      const message = err instanceof Error ? err.message : String(err);
      opts.log(`upload ${row.key}: attempt ${attempts} failed: ${message}`);
      const last = attempts >= MAX_ATTEMPTS;
      await updateLeased(db, row.key, owner, {
        attempts,
        lease_owner: null,
        lease_until: null,
        updated_at: iso(opts.now()),
        ...(last
          ? { status: 'FAILED', error: `processing failed: ${message}`, run_at: null }
          : { run_at: iso(opts.now() + 60_000 * 2 ** (attempts - 1)) }),
      }).catch((e: unknown) => opts.log(`upload ${row.key}: ${String(e)}`));
    }
  };

  const tick = async (): Promise<number> => {
    const free = concurrency - running.size;
    if (free <= 0 || stopped) return 0;
    const rows = await claimUploads(db, opts.dialect, {
      owner,
      now: opts.now(),
      leaseMs,
      limit: free,
    });
    for (const row of rows) {
      const job = processOne(row).finally(() => running.delete(job));
      running.add(job);
    }
    return rows.length;
  };

  const safeTick = () =>
    tick().catch((err: unknown) => {
      opts.log(`upload runner: ${String(err)}`);
      return 0;
    });

  const schedule = (ms: number) => {
    if (stopped || !timer) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      void safeTick().finally(() => schedule(intervalMs));
    }, ms);
  };

  return {
    start() {
      stopped = false;
      timer = setTimeout(() => undefined, 0);
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...running]);
    },
    kick() {
      if (timer && !stopped) schedule(0);
    },
    async runDue() {
      let total = 0;
      for (;;) {
        const n = await tick();
        await Promise.allSettled([...running]);
        if (n === 0) return total;
        total += n;
      }
    },
  };
};
