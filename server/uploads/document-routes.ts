import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { iso } from '../time';
import { noStorage, uploadDepsOf } from './context';
import { removeFiles } from './routes';

const notFound = (what: string) => new ApiError(404, 'not_found', what);

/**
 * An uploaded document's delete (its file, document and bytes) and the end of its sharing
 * (contract/uploads.ts). Scoped to the caller: another user's document answers 404.
 */
export const registerDocumentRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('uploads', app, deps.product);
  const need = () => {
    const u = uploadDepsOf(deps);
    if (!u) throw noStorage();
    return u;
  };

  on('docDelete', async (c, { params, query, auth }) => {
    const u = need();
    const userId = auth.user.id;
    const row = await ownUpload(c.var.db, userId, params.source, query.deeplink);
    if (!row) throw notFound(`no such document: ${query.deeplink}`);
    await removeFiles(c, deps, u, userId, [row]);
    return { ok: true as const, message: 'Document deleted' };
  });

  on('docShareRevoke', async (c, { params, query, auth }) => {
    const userId = auth.user.id;
    const doc = await c.var.db
      .selectFrom('document_shares as sh')
      .innerJoin('documents as d', 'd.id', 'sh.document_id')
      .innerJoin('sources as s', 's.id', 'd.source_id')
      .select('d.id')
      .where('sh.user_id', '=', userId)
      .where('d.id', '=', query.deeplink)
      .where((eb) => eb.or([eb('s.key', '=', params.source), eb('s.id', '=', params.source)]))
      .executeTakeFirst();
    if (!doc) throw notFound(`no shared document: ${query.deeplink}`);
    await transact(c, (db) =>
      db
        .updateTable('document_shares')
        .set({ revoked_at: iso(deps.now()) })
        .where('document_id', '=', doc.id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute(),
    );
    return { ok: true as const, message: 'Sharing stopped' };
  });
};

/** The user's upload that became document `deeplink` of source `source` (key or id). */
export const ownUpload = (db: Db, userId: string, source: string, deeplink: string) =>
  db
    .selectFrom('upload_files as u')
    .innerJoin('documents as d', 'd.id', 'u.document_id')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .selectAll('u')
    .where('u.user_id', '=', userId)
    .where('d.id', '=', deeplink)
    .where((eb) => eb.or([eb('s.key', '=', source), eb('s.id', '=', source)]))
    .executeTakeFirst();
