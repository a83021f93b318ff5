import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { citationPreviewHref } from '../../contract/assistant';
import type { Db, DialectName } from '../db/schema';
import { inTransaction } from '../db/tx';
import { addNotification } from '../notifications';
import type { FileStorage } from '../storage';
import { iso } from '../time';
import { summarize, summaryPdf } from './summarize';
import './tables';
import '../uploads';

/**
 * The summary jobs: document_summaries rows PENDING or PROCESSING, claimed with a lease as the
 * upload jobs are (PostgreSQL `FOR UPDATE SKIP LOCKED`, SQLite one `UPDATE ... RETURNING`).
 * A run writes the PDF to storage under the summary's own key (a rerun writes the same key
 * again), then, in one transaction fenced on its lease, marks the summary SUCCESS and creates
 * the user's notification: a process killed at any point leaves the job to be claimed again
 * once its lease ends, and never two notifications. The runner is woken by a request
 * (`kick`): a summary asked for, or a status read that finds a job due (after a restart).
 */

const LEASE_MS = 120_000;
const MAX_ATTEMPTS = 3;

export type SummaryRunnerDeps = {
  db: Db;
  dialect: DialectName;
  storage: FileStorage;
  product: string;
  now: () => number;
  log: (line: string) => void;
};

type Row = {
  id: string;
  user_id: string;
  document_id: string;
  attempts: number;
};

const due = (db: Db, at: string) =>
  db
    .selectFrom('document_summaries')
    .select('id')
    .where('status', 'in', ['PENDING', 'PROCESSING'])
    .where('run_at', '<=', at)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .orderBy('run_at')
    .limit(1);

export async function claimSummary(
  db: Db,
  dialect: DialectName,
  owner: string,
  now: number,
): Promise<Row | null> {
  const at = iso(now);
  const set = {
    status: 'PROCESSING',
    lease_owner: owner,
    lease_until: iso(now + LEASE_MS),
    updated_at: at,
  };
  const cols = ['id', 'user_id', 'document_id', 'attempts'] as const;
  if (dialect === 'postgres') {
    return inTransaction(db, async (trx) => {
      const ids = (await due(trx, at).forUpdate().skipLocked().execute()).map((r) => r.id);
      if (ids.length === 0) return null;
      return (
        (await trx
          .updateTable('document_summaries')
          .set(set)
          .where('id', 'in', ids)
          .returning(cols)
          .executeTakeFirst()) ?? null
      );
    });
  }
  return (
    (await db
      .updateTable('document_summaries')
      .set(set)
      .where('id', 'in', due(db, at))
      .returning(cols)
      .executeTakeFirst()) ?? null
  );
}

/** The summary's storage key: under the user, named by the summary. */
export const summaryKey = (userId: string, summaryId: string) =>
  `summaries/${userId}/${summaryId}.pdf`;

/** Writes the job's outcome if `owner` still holds its lease, with the user's notification. */
async function finish(
  deps: SummaryRunnerDeps,
  row: Row,
  owner: string,
  outcome:
    | { status: 'SUCCESS'; key: string; title: string; link: string | null }
    | { status: 'FAILED'; error: string; title: string; link: string | null },
): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    const at = iso(deps.now());
    const res = await trx
      .updateTable('document_summaries')
      .set({
        status: outcome.status,
        storage_key: outcome.status === 'SUCCESS' ? outcome.key : null,
        pdf_secret: outcome.status === 'SUCCESS' ? randomBytes(24).toString('base64url') : null,
        error: outcome.status === 'FAILED' ? outcome.error : null,
        lease_owner: null,
        lease_until: null,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'PROCESSING')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await addNotification(
      trx,
      row.user_id,
      {
        title:
          outcome.status === 'SUCCESS'
            ? `Summary ready: ${outcome.title}`
            : `Summary failed: ${outcome.title}`,
        body:
          outcome.status === 'SUCCESS'
            ? `The summary of "${outcome.title}" is ready. Open the document and choose View Summary.`
            : `The summary of "${outcome.title}" could not be made: ${outcome.error}`,
        link: outcome.link,
        at,
      },
      deps.now(),
    );
    return true;
  });
}

async function runOne(deps: SummaryRunnerDeps, row: Row, owner: string): Promise<void> {
  const doc = await deps.db
    .selectFrom('documents as d')
    .innerJoin('upload_files as f', 'f.document_id', 'd.id')
    .select([
      'd.title',
      'd.plain_text',
      'd.source_key',
      'd.source_id',
      'd.category_tab',
      'f.name',
      'f.num_pages',
    ])
    .where('d.id', '=', row.document_id)
    .where('f.user_id', '=', row.user_id)
    .executeTakeFirst();
  const title = doc?.title || doc?.name || 'your document';
  const link = doc
    ? citationPreviewHref({
        source: doc.source_key,
        document_id: row.document_id,
        access_key: doc.source_id,
        category_tab: doc.category_tab,
      })
    : null;
  if (!doc || !doc.plain_text.trim()) {
    await finish(deps, row, owner, {
      status: 'FAILED',
      error: 'the document has no text to summarise.',
      title,
      link,
    });
    return;
  }
  const regions = await deps.db
    .selectFrom('document_regions')
    .select(['span_start', 'span_end', 'page'])
    .where('document_id', '=', row.document_id)
    .where('page', 'is not', null)
    .orderBy('span_start')
    .execute();
  const pageAt = (offset: number) => {
    // The last region starting at or before the offset (regions are in text order).
    let lo = 0;
    let hi = regions.length - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (regions[mid]!.span_start <= offset) {
        found = regions[mid]!.page ?? undefined;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const summary = summarize({
    title,
    text: doc.plain_text,
    pageAt: regions.length ? pageAt : undefined,
  });
  const pdf = summaryPdf(
    { title, fileName: doc.name, pages: doc.num_pages, at: new Date(deps.now()) },
    summary,
  );
  const key = summaryKey(row.user_id, row.id);
  await deps.storage.put(key, Readable.from([Buffer.from(pdf)]), {
    contentType: 'application/pdf',
    size: pdf.length,
  });
  const done = await finish(deps, row, owner, { status: 'SUCCESS', key, title, link });
  deps.log(`summary ${row.id}: ${done ? 'SUCCESS' : 'lease lost'}`);
}

export type SummaryRunner = { kick(): void; idle(): Promise<void> };

export function createSummaryRunner(deps: SummaryRunnerDeps): SummaryRunner {
  const owner = `summaries-${randomUUID()}`;
  let running: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      for (;;) {
        const row = await claimSummary(deps.db, deps.dialect, owner, deps.now());
        if (!row) break;
        try {
          await runOne(deps, row, owner);
        } catch (err) {
          const attempts = row.attempts + 1;
          const message = err instanceof Error ? err.message : String(err);
          deps.log(`summary ${row.id}: attempt ${attempts} failed: ${message}`);
          if (attempts >= MAX_ATTEMPTS) {
            await finish(deps, row, owner, {
              status: 'FAILED',
              error: 'the summary could not be written; try again later.',
              title: 'your document',
              link: null,
            }).catch(() => false);
          } else {
            await deps.db
              .updateTable('document_summaries')
              .set({
                attempts,
                lease_owner: null,
                lease_until: null,
                run_at: iso(deps.now() + 30_000 * 2 ** (attempts - 1)),
                updated_at: iso(deps.now()),
              })
              .where('id', '=', row.id)
              .where('lease_owner', '=', owner)
              .execute()
              .catch(() => undefined);
          }
        }
      }
    } while (again);
  };
  return {
    kick() {
      if (running) {
        again = true;
        return;
      }
      running = loop()
        .catch((err: unknown) =>
          deps.log(`summaries: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          running = null;
        });
    },
    idle: () => running ?? Promise.resolve(),
  };
}
