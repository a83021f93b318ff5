import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { documentFor, readList, readStateOf, setReadState } from './queries';

const notFound = (deeplink: string) =>
  new ApiError(404, 'not_found', `no such document: ${deeplink}`);

/**
 * The endpoints of contract/documents.ts: a document's preview (GET /doc/{source}) and read
 * state (/doc/read_status, /doc/read_Status/{id}). A document the user may not see answers 404
 * (queries.ts `visibleDocuments`). Static paths are registered before `/doc/{source}`.
 */
export const registerDocumentRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('documents', app, deps.product);

  on('readStatus', async (c, { body, auth }) => ({
    updated: await transact(c, (db) =>
      setReadState(db, auth.user.id, body.deeplinks, body.status, deps.now()),
    ),
  }));

  on('markUnread', async (c, { body, auth }) => ({
    updated: await transact(c, (db) =>
      setReadState(db, auth.user.id, body.deeplinks, 'unread', deps.now()),
    ),
  }));

  on('readList', async (c, { query, auth }) =>
    readList(c.var.db, auth.user.id, query.after, query.limit),
  );

  on('readOne', async (c, { params, auth }) => {
    const status = await readStateOf(c.var.db, auth.user.id, params.id);
    if (!status) throw notFound(params.id);
    return { deeplink: params.id, status };
  });

  on('doc', async (c, { params, query, auth }) => {
    const doc = await documentFor(c.var.db, auth.user.id, params.source, query.deeplink);
    if (!doc) throw notFound(query.deeplink);
    return { results: [doc] };
  });
};
