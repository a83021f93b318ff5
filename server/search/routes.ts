import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv, AuthInfo } from '../context';
import type { Db } from '../db/schema';
import { routesFor } from '../http/define';
import { searchAnswer, type SearchKit } from './answer';
import { engineFor } from './engines';
import { exchangeFacets, tagFacets } from './facets';
import { splitPassages } from './passages';
import { searchScope } from './scope';
import { searchHandle } from './yielding';

/**
 * The endpoints of contract/search.ts. /search/tags and /search/exchanges are registered
 * before /search/{source} (Hono matches in registration order). Every call is a read: no
 * transaction, and the scope comes from scope.ts alone. On SQLite each statement is read
 * through `searchHandle` (yielding.ts), so a search takes turns with every other request.
 */
export const registerSearchRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('search', app, deps.product);
  const viewer = (auth: AuthInfo) => ({ userId: auth.user.id, product: deps.product });
  const kitFor = (db: Db): SearchKit => ({
    engine: engineFor(db),
    passagesOf: splitPassages,
  });

  on('search', async (c, { body, auth }) => {
    const db = searchHandle(c.var.db);
    const scope = await searchScope(db, viewer(auth), body);
    return searchAnswer(db, kitFor(db), scope, body, deps.now());
  });

  on('searchTags', async (c, { body, auth }) => {
    const db = searchHandle(c.var.db);
    const scope = await searchScope(db, viewer(auth), body);
    return { facets: { tags: await tagFacets(db, kitFor(db), scope, body) } };
  });

  on('searchExchanges', async (c, { body, auth }) => {
    const db = searchHandle(c.var.db);
    const scope = await searchScope(db, viewer(auth), body);
    const country = body.filter?.exchanges?.Country ?? null;
    const companies = await exchangeFacets(db, kitFor(db), scope, {
      q: body.q,
      country,
    });
    return { facets: { exchanges: { Companies: companies } } };
  });

  on('searchSource', async (c, { params, body, auth }) => {
    const db = searchHandle(c.var.db);
    const scope = await searchScope(db, viewer(auth), { ...body, source: params.source });
    return searchAnswer(db, kitFor(db), scope, body, deps.now());
  });
};
