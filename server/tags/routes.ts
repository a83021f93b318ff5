import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import { mergeTags, renameTag } from './manage';
import {
  createTag,
  deleteTag,
  documentTags,
  needlboxSources,
  setDocumentTags,
  tagLinks,
  userTags,
} from './queries';

/**
 * The endpoints of contract/tags.ts. The static /tag/* paths are registered before /tag/{id}.
 * Reads use `c.var.db`; writes go through `transact`.
 */
export const registerTagRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('tags', app, deps.product);

  on('userTags', async (c, { auth }) => ({ user_tags: await userTags(c.var.db, auth.user.id) }));

  on('tagLinks', async (c, { query, auth }) =>
    tagLinks(c.var.db, auth.user.id, query.after, query.limit, query.cards === 'true'),
  );

  on('needlboxSources', async (c, { auth }) => needlboxSources(c.var.db, auth.user.id));

  on('createTag', async (c, { body, auth }) =>
    transact(c, (db) =>
      createTag(db, auth.user.id, { name: body.tag, id: body.id }, deps.product, deps.now()),
    ),
  );

  on('deleteTag', async (c, { body, auth }) => ({
    deleted: await transact(c, (db) => deleteTag(db, auth.user.id, body.tag_id, deps.now())),
  }));

  // Before /tag/{id}: a static path wins only when registered first.
  on('renameTag', async (c, { body, auth }) => ({
    tag: await transact(c, (db) => renameTag(db, auth.user.id, body.tag_id, body.tag, deps.now())),
  }));

  on('mergeTags', async (c, { body, auth }) =>
    transact(c, (db) => mergeTags(db, auth.user.id, body.from, body.into, deps.now())),
  );

  on('documentTags', async (c, { params, auth }) => ({
    deep_link: params.id,
    user_tags: await documentTags(c.var.db, auth.user.id, params.id),
    shared_tags: [],
  }));

  on('setDocumentTags', async (c, { params, body, auth }) =>
    transact(c, (db) =>
      setDocumentTags(
        db,
        auth.user.id,
        params.id,
        body.tags,
        body.create ?? [],
        deps.product,
        deps.now(),
      ),
    ),
  );
};
