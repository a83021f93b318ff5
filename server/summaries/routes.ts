import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { SummaryPdfQuery, type SummaryStatus } from '../../contract/extract';
import { UPLOAD_MIME_BY_EXTENSION } from '../../contract/uploads';
import { afterCommit, transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { ApiError, validationError } from '../errors';
import { ownUpload } from './own';
import { routesFor } from '../http/define';
import { iso } from '../time';
import { driveKeyOf } from '../uploads';
import { createSummaryRunner, type SummaryRunner } from './runner';
import './tables';

type SummaryRow = {
  id: string;
  status: string;
  pdf_secret: string | null;
  error: string | null;
  run_at: string;
  lease_until: string | null;
};

const statusOf = (deeplink: string, row: SummaryRow | undefined): SummaryStatus => ({
  deeplink,
  status: (row?.status as SummaryStatus['status']) ?? null,
  summary_pdf:
    row?.status === 'SUCCESS' && row.pdf_secret
      ? `/api/save_summary/pdf/${row.id}?key=${encodeURIComponent(row.pdf_secret)}`
      : null,
  error: row?.status === 'FAILED' ? row.error : null,
});

const summaryOf = (db: Db, userId: string, documentId: string) =>
  db
    .selectFrom('document_summaries')
    .select(['id', 'status', 'pdf_secret', 'error', 'run_at', 'lease_until'])
    .where('user_id', '=', userId)
    .where('document_id', '=', documentId)
    .executeTakeFirst();

/** The types a summary reads: those extraction reads (the old binary Office types cannot be). */
const SUMMARY_MIME_TYPES = (['pdf', 'docx', 'pptx', 'xlsx', 'txt', 'md'] as const).map(
  (t) => UPLOAD_MIME_BY_EXTENSION[t],
);

const secretMatches = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * C56-C58 (contract/extract.ts) and the summary PDF. The runner (runner.ts) is made here, one
 * per app, and woken after a request is committed.
 */
export const registerSummaryRoutes = (
  app: OpenAPIHono<AppEnv>,
  deps: AppDeps,
): SummaryRunner | null => {
  const on = routesFor('extract', app, deps.product);
  const runner = deps.storage
    ? createSummaryRunner({
        db: deps.db,
        dialect: deps.dialect,
        storage: deps.storage,
        product: deps.product,
        now: deps.now,
        log: deps.log,
      })
    : null;
  const needRunner = () => {
    if (!runner)
      throw new ApiError(500, 'internal', 'file storage is not configured on this server');
    return runner;
  };

  on('saveSummary', async (c, { body, auth }) => {
    const r = needRunner();
    await ownUpload(c.var.db, auth.user.id, body.deeplink);
    const row = await transact(c, async (db) => {
      const at = iso(deps.now());
      const found = await summaryOf(db, auth.user.id, body.deeplink);
      if (!found) {
        await db
          .insertInto('document_summaries')
          .values({
            id: randomUUID(),
            user_id: auth.user.id,
            document_id: body.deeplink,
            status: 'PENDING',
            storage_key: null,
            pdf_secret: null,
            error: null,
            run_at: at,
            lease_owner: null,
            lease_until: null,
            attempts: 0,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.columns(['user_id', 'document_id']).doNothing())
          .execute();
      } else if (found.status === 'FAILED') {
        // Asking again after a failure tries again.
        await db
          .updateTable('document_summaries')
          .set({ status: 'PENDING', error: null, attempts: 0, run_at: at, updated_at: at })
          .where('id', '=', found.id)
          .where('status', '=', 'FAILED')
          .execute();
      }
      return summaryOf(db, auth.user.id, body.deeplink);
    });
    afterCommit(c, () => r.kick());
    return statusOf(body.deeplink, row);
  });

  on('summaryStatus', async (c, { query, auth }) => {
    const row = await summaryOf(c.var.db, auth.user.id, query.deeplink);
    if (!row) {
      // A summary never asked for: only of the caller's own documents may one be asked for.
      await ownUpload(c.var.db, auth.user.id, query.deeplink);
      return statusOf(query.deeplink, undefined);
    }
    // A job left by a server that stopped (its lease over) is taken up when someone looks.
    const now = iso(deps.now());
    if (
      runner &&
      (row.status === 'PENDING' || row.status === 'PROCESSING') &&
      row.run_at <= now &&
      (row.lease_until === null || row.lease_until < now)
    ) {
      runner.kick();
    }
    return statusOf(query.deeplink, row);
  });

  on('summaryConfig', async (_c, { auth }) => ({
    sources: [driveKeyOf(deps.product, auth.user.id)],
    filters: [{ filterName: 'mime_type', filterValues: SUMMARY_MIME_TYPES }],
  }));

  // The summary PDF: its link carries its secret, so a new tab opens it without the token.
  app.get('/api/save_summary/pdf/:id', async (c) => {
    const parsed = SummaryPdfQuery.safeParse(c.req.query());
    if (!parsed.success) throw validationError(parsed.error.issues);
    const id = c.req.param('id');
    const row = await c.var.db
      .selectFrom('document_summaries as s')
      .innerJoin('documents as d', 'd.id', 's.document_id')
      .select(['s.storage_key', 's.pdf_secret', 'd.title'])
      .where('s.id', '=', id)
      .where('s.status', '=', 'SUCCESS')
      .executeTakeFirst();
    if (
      !row ||
      !row.pdf_secret ||
      !row.storage_key ||
      !secretMatches(row.pdf_secret, parsed.data.key)
    ) {
      throw new ApiError(404, 'not_found', 'no such summary');
    }
    if (!deps.storage)
      throw new ApiError(500, 'internal', 'file storage is not configured on this server');
    const head = await deps.storage.head(row.storage_key);
    if (!head) throw new ApiError(404, 'not_found', 'the summary file is missing');
    const name = `Summary - ${row.title || 'document'}.pdf`.replace(/[^\x20-\x7e]|["\\/]/g, '_');
    return new Response(
      Readable.toWeb(await deps.storage.get(row.storage_key)) as unknown as ReadableStream,
      {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-length': String(head.size),
          'content-disposition': `inline; filename="${name}"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
      },
    );
  });
  return runner;
};
