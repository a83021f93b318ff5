import type { OpenAPIHono } from '@hono/zod-openapi';
import { EMPTY_DEFINITION, HOME_BOARD, type BoardDefinition } from '../../contract/boards';
import { MARK_ALL_READ_LIMIT } from '../../contract/documents';
import { transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { defineEndpoint, routesFor } from '../http/define';
import { markFeedRead } from '../documents';
import { allVisible, followedRows, toSources } from '../catalogue';
import { readSourceIds } from './build';
import { feedChoices } from './choices';
import { feedPage } from './feed-page';
import { compileDefinition } from './match';
import { boardMetadata } from './metadata';
import {
  checkedDefinition,
  createBoard,
  deleteBoard,
  editBoard,
  enableBoard,
  homeBoard,
  listBoards,
  ownBoard,
  resolveFeed,
  toBoard,
} from './queries';
import { aiSmarts, refinements, suggestions } from './suggestions';
import { cardsOf, tally } from './tally';

/** Newest documents a preview shows. */
const PREVIEW_DOCS = 20;

/**
 * The endpoints of contract/boards.ts. Static paths (/boards/v2, feed_choices, ai_smarts,
 * suggestions, enable/{id}) are registered before the `{id}` ones (Hono matches in order).
 */
export const registerBoardRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('boards', app, deps.product);

  /** The definition behind an id (`home`: every followed source, nothing else). */
  const definitionOf = async (db: Db, userId: string, id: string): Promise<BoardDefinition> =>
    id === HOME_BOARD
      ? EMPTY_DEFINITION
      : toBoard(await ownBoard(db, userId, id), deps.now()).definition;

  on('boards', async (c, { query, auth }) => ({
    results: (await listBoards(c.var.db, auth.user.id, query.hidden === 'true')).map((r) =>
      toBoard(r, deps.now()),
    ),
  }));

  on('createBoard', async (c, { body, auth }) => {
    const definition = await checkedDefinition(c.var.db, auth.user.id, body.definition);
    const row = await transact(c, (db) =>
      createBoard(db, auth.user.id, { ...body, definition }, deps.now()),
    );
    return toBoard(row, deps.now());
  });

  on('feedChoices', async (c, { auth }) => feedChoices(c.var.db, auth.user.id));

  on('aiSmarts', async (c, { body, auth }) => {
    const labels = new Map(
      (await allVisible(c.var.db, auth.user.id)).map((s) => [s.id, s.label] as const),
    );
    return aiSmarts(c.var.db, auth.user.id, body, labels, deps.now());
  });

  on('suggestions', async (c, { auth }) => ({
    results: await suggestions(c.var.db, auth.user.id, deps.now()),
  }));

  on('enableBoard', async (c, { params, body, auth }) => {
    const current = await ownBoard(c.var.db, auth.user.id, params.id);
    const row = await transact(c, (db) => enableBoard(db, current, body.enabled, deps.now()));
    return toBoard(row, deps.now());
  });

  on('board', async (c, { params, auth }) =>
    params.id === HOME_BOARD
      ? homeBoard(auth.user, deps.product, deps.now())
      : toBoard(await ownBoard(c.var.db, auth.user.id, params.id), deps.now()),
  );

  on('editBoard', async (c, { params, body, auth }) => {
    const current = await ownBoard(c.var.db, auth.user.id, params.id);
    const definition = await checkedDefinition(c.var.db, auth.user.id, body.definition);
    const row = await transact(c, (db) =>
      editBoard(db, current, { ...body, definition }, deps.now()),
    );
    return toBoard(row, deps.now());
  });

  on('deleteBoard', async (c, { params, auth }) => {
    const current = await ownBoard(c.var.db, auth.user.id, params.id);
    await transact(c, (db) => deleteBoard(db, current, deps.now()));
    return { ok: true as const };
  });

  on('duplicateBoard', async (c, { params, body, auth }) => {
    const source = toBoard(await ownBoard(c.var.db, auth.user.id, params.id), deps.now());
    const draft = {
      board_name: body.board_name?.trim() || `${source.board_name} (copy)`,
      description: source.description,
      kind: source.kind,
      definition: source.definition,
    };
    const row = await transact(c, (db) => createBoard(db, auth.user.id, draft, deps.now()));
    return toBoard(row, deps.now());
  });

  // Read state is the documents domain's (its contract); which documents a feed holds is ours.
  defineEndpoint(app, deps.product, 'markAllRead', async (c, { params, body, auth }) => {
    const feed = await resolveFeed(c.var.db, auth.user.id, params.id);
    return transact(c, (db) =>
      markFeedRead(db, auth.user.id, feed.feedId, body, MARK_ALL_READ_LIMIT, deps.now()),
    );
  });

  on('boardDocs', async (c, { params, query, auth }) => {
    const feed = await resolveFeed(c.var.db, auth.user.id, params.id);
    return feedPage(c.var.db, { ...feed, userId: auth.user.id }, query);
  });

  /** The sources a feed reads: its own ∩ what the user follows (home: all followed). */
  const feedSources = async (db: Db, userId: string, id: string) => {
    const query = compileDefinition(await definitionOf(db, userId, id), deps.now());
    const ids = new Set(await readSourceIds(db, userId, query));
    return (await followedRows(db, userId)).filter((r) => ids.has(r.id));
  };

  on('boardMetadata', async (c, { params, auth }) => {
    const feed = await resolveFeed(c.var.db, auth.user.id, params.id);
    const sources = await feedSources(c.var.db, auth.user.id, params.id);
    return boardMetadata(c.var.db, feed, sources.length);
  });

  on('boardSources', async (c, { params, auth }) => ({
    results: await toSources(c.var.db, await feedSources(c.var.db, auth.user.id, params.id)),
  }));

  // Groups (channels) arrive in a later issue: until then a feed is shared with none.
  on('boardChannels', async (c, { params, auth }) => {
    await resolveFeed(c.var.db, auth.user.id, params.id);
    return { results: [] };
  });

  on('previewBoard', async (c, { params, body, auth }) => {
    if (params.id !== 'new') await resolveFeed(c.var.db, auth.user.id, params.id);
    const definition = await checkedDefinition(c.var.db, auth.user.id, body.definition);
    const [result] = await tally(
      c.var.db,
      auth.user.id,
      [compileDefinition(definition, deps.now())],
      { keep: PREVIEW_DOCS },
    );
    const documents = await cardsOf(
      c.var.db,
      result.newest.map((d) => d.id),
    );
    return { results: { documents, count: result.count } };
  });

  on('boardSuggestions', async (c, { params, auth }) => {
    const feed = await resolveFeed(c.var.db, auth.user.id, params.id);
    const definition = await definitionOf(c.var.db, auth.user.id, params.id);
    return { results: await refinements(c.var.db, feed.feedId, definition) };
  });
};
