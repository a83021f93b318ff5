import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { sourceTitle } from '../../contract/source-catalogue';
import {
  followedText,
  PRIORITY_TEXT,
  unfollowedText,
  type Categories,
  type FollowUrlBody,
} from '../../contract/sources';
import { transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { limitEndpoints } from '../http/user-limits';
import { setSourceBoards, sourceBoards } from './add-to-feeds';
import { categoriesOf } from './categories';
import { checkedUrl, followProbed, ownSourceAt, probe } from './connect-url';
import { followSource, setPriority, unfollowSource } from './follow';
import { TOPICS, allVisible, findVisible, followedRows, toSources, topicOfKey } from '../catalogue';

const notFound = (what: string) => new ApiError(404, 'not_found', what);

/**
 * The endpoints of contract/sources.ts. Every read goes through what the user may see
 * (queries.ts): public sources and their own. Writes run in `transact`; reading an address to
 * follow (probe) happens before it, so a slow site holds no transaction open.
 */
export const registerSourceRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  // LIMIT_FOLLOWS_PER_HOUR per user across these (mounted ahead of the routes themselves).
  limitEndpoints(app, deps, 'follows', ['follow', 'followMany', 'followRss', 'followCustom']);
  const on = routesFor('sources', app, deps.product);

  on('categories', async (c, { auth }): Promise<Categories> => {
    const rows = await allVisible(c.var.db, auth.user.id);
    return { results: categoriesOf(await toSources(c.var.db, rows), deps.product) };
  });

  on('publicSources', async (c, { query, auth }) => {
    let rows = (await allVisible(c.var.db, auth.user.id)).filter((r) => r.public === 1);
    if (query.priority_websites === 'true') rows = rows.filter((r) => Number(r.priority) === 1);
    return { sources: await toSources(c.var.db, rows) };
  });

  on('privateSources', async (c, { auth }) => {
    const rows = (await allVisible(c.var.db, auth.user.id)).filter(
      (r) => r.owner_user_id === auth.user.id,
    );
    return { sources: await toSources(c.var.db, rows) };
  });

  const followedFeeds = async (db: Db, userId: string) =>
    (await followedRows(db, userId)).filter((r) => r.kind === 'rss' || r.kind === 'website');

  on('rssSources', async (c, { auth }) => ({
    results: await toSources(c.var.db, await followedFeeds(c.var.db, auth.user.id)),
  }));

  on('rssSource', async (c, { params, auth }) => {
    const row = (await followedFeeds(c.var.db, auth.user.id)).find(
      (r) => r.id === params.id || r.key === params.id,
    );
    if (!row) throw notFound(`no followed feed ${params.id}`);
    return (await toSources(c.var.db, [row]))[0];
  });

  on('sourceStatus', async (c, { auth }) => {
    const sources = await toSources(c.var.db, await followedRows(c.var.db, auth.user.id));
    return {
      results: sources.map((s) => ({
        source_id: s.source_id,
        label: s.label,
        kind: s.kind,
        status: s.status,
      })),
    };
  });

  on('setPriority', async (c, { body, auth }) => {
    const ids = [...new Set(body.source_ids)];
    const followed = new Set((await followedRows(c.var.db, auth.user.id)).map((r) => r.id));
    const unknown = ids.filter((id) => !followed.has(id));
    if (unknown.length) {
      const message = `source_ids: not followed: ${unknown.join(', ')}`;
      throw new ApiError(400, 'bad_request', message, [{ path: 'source_ids', message }]);
    }
    const updated = await transact(c, (db) =>
      setPriority(db, auth.user.id, ids, body.priority, deps.now()),
    );
    return { updated, message: PRIORITY_TEXT.success };
  });

  on('follow', async (c, { body, auth }) => {
    const row = await findVisible(c.var.db, auth.user.id, body.key);
    if (!row) throw notFound(`no such source: ${body.key}`);
    const source = await transact(c, (db) =>
      body.delink
        ? unfollowSource(db, auth.user.id, row.id, deps.now())
        : followSource(db, auth.user.id, row.id, deps.now()),
    );
    const message = body.delink ? unfollowedText(source.label) : followedText(source.label);
    return { source, message };
  });

  on('followMany', async (c, { body, auth }) => {
    const keys = [...new Set(body.keys)];
    const rows = await Promise.all(keys.map((k) => findVisible(c.var.db, auth.user.id, k)));
    const unknown = keys.filter((_, i) => !rows[i]);
    if (unknown.length) {
      const message = `keys: no such source: ${unknown.join(', ')}`;
      throw new ApiError(400, 'bad_request', message, [{ path: 'keys', message }]);
    }
    const sources = await transact(c, async (db) => {
      const out = [];
      for (const row of rows) out.push(await followSource(db, auth.user.id, row!.id, deps.now()));
      return out;
    });
    return { sources };
  });

  /**
   * Following by address: an address the user has a source for is followed again without a
   * fetch; a new one is probed (its first bytes) before the transaction and read by the runner.
   */
  const followAddress = async (c: Context<AppEnv>, userId: string, body: FollowUrlBody) => {
    const url = checkedUrl(body.url);
    const known = await ownSourceAt(c.var.db, userId, url);
    if (known) return transact(c, (db) => followSource(db, userId, known, deps.now()));
    const probed = await probe(url);
    return transact(c, (db) => followProbed(db, userId, probed, body, deps.now()));
  };

  on('followRss', async (c, { body, auth }) => followAddress(c, auth.user.id, body));

  on('followCustom', async (c, { params, body, auth }) => {
    if (params.app !== 'rss' && params.app !== 'website') {
      const message = `app must be rss or website, not ${params.app}`;
      throw new ApiError(400, 'bad_request', message, [{ path: 'app', message }]);
    }
    return followAddress(c, auth.user.id, body);
  });

  // Add to feeds: the user's own feeds only (boards are read and edited by user id).
  const visibleSource = async (db: Db, userId: string, key: string) => {
    const row = await findVisible(db, userId, key);
    if (!row) throw notFound(`no such source: ${key}`);
    return row;
  };

  on('sourceBoards', async (c, { params, auth }) => {
    const source = await visibleSource(c.var.db, auth.user.id, params.id);
    return { results: await sourceBoards(c.var.db, auth.user.id, source.id, deps.now()) };
  });

  on('setSourceBoards', async (c, { params, body, auth }) => {
    const source = await visibleSource(c.var.db, auth.user.id, params.id);
    const results = await transact(c, (db) =>
      setSourceBoards(db, auth.user.id, source.id, body, deps.now()),
    );
    return { results };
  });

  on('rssTopics', async (c, { auth }) => {
    const sources = await toSources(c.var.db, await allVisible(c.var.db, auth.user.id));
    return {
      results: TOPICS.map((topic) => ({
        topic,
        label: sourceTitle(topic, deps.product),
        sources: sources.filter((s) => topicOfKey(s.key) === topic),
      })),
    };
  });
};
