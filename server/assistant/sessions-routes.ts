import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  HOME_ID,
  universeId,
  type AskSession,
  type ChatState,
  type SessionMetadata,
} from '../../contract/assistant';
import { transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { recordChange } from '../sync';
import { sessionAttachments } from './attachments';
import { suggestions } from './messaging';
import { searchSessions } from './session-search';
import {
  metadataOf,
  ownSession,
  sessionChange,
  sessionMessages,
  toSummary,
  type SessionRow,
} from './sessions';

/**
 * The sessions' endpoints of contract/assistant.ts (history list and search, one session, its
 * rename and settings, its deletion), feedback on an answer, and suggested questions. Every
 * query is scoped to the caller: another user's session or message answers 404.
 */

/** Where a session's chat stands (001 §3 chat state): all data, a feed or a document. */
export function chatScopeOf(
  meta: SessionMetadata,
  product: string,
): Pick<ChatState, 'searchWithin' | 'currentFeedOrDocumentId'> {
  switch (meta.type) {
    case 'document':
      return { searchWithin: 'document', currentFeedOrDocumentId: meta.document_id[0] ?? HOME_ID };
    case 'feed':
      return { searchWithin: 'feed', currentFeedOrDocumentId: meta.board_id ?? HOME_ID };
    case 'web':
      return { searchWithin: 'feed', currentFeedOrDocumentId: universeId(product) };
    case 'channel':
      return { searchWithin: 'feed', currentFeedOrDocumentId: meta.channel_id ?? HOME_ID };
    default:
      return { searchWithin: 'all', currentFeedOrDocumentId: HOME_ID };
  }
}

/** A session as its owner sees it (an answer its server abandoned reads as stopped). */
async function sessionOf(
  db: Db,
  row: SessionRow,
  product: string,
  now: number,
): Promise<AskSession> {
  const metadata = metadataOf(row);
  const { attachments, messages } = await sessionAttachments(
    db,
    row.user_id,
    metadata.attachments_feed_id,
    await sessionMessages(db, row.id, now),
  );
  return {
    ...toSummary(row),
    state: {
      ...chatScopeOf(metadata, product),
      messages,
      attachments,
      attachmentsFeedId: metadata.attachments_feed_id ?? null,
      metadata,
      settings: JSON.parse(row.settings) as Record<string, unknown>,
    },
  };
}

export const registerSessionRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('assistant', app, deps.product);

  on('askSessions', async (c, { query, auth }) => {
    const userId = auth.user.id;
    const q = query.q?.trim();
    if (q) return { sessions: await searchSessions(c.var.db, userId, q, query.limit) };
    const rows = await c.var.db
      .selectFrom('assistant_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'asc')
      .limit(query.limit)
      .execute();
    return { sessions: rows.map((r) => toSummary(r)) };
  });

  on('askSession', async (c, { params, auth }) =>
    sessionOf(
      c.var.db,
      await ownSession(c.var.db, auth.user.id, params.id),
      deps.product,
      deps.now(),
    ),
  );

  on('askSessionPut', async (c, { params, body, auth }) => {
    const userId = auth.user.id;
    const row = await transact(c, async (db) => {
      const current = await ownSession(db, userId, params.id);
      const next: SessionRow = {
        ...current,
        title: body.title ?? current.title,
        settings:
          body.state?.settings !== undefined
            ? JSON.stringify(body.state.settings)
            : current.settings,
      };
      await db
        .updateTable('assistant_sessions')
        .set({ title: next.title, settings: next.settings })
        .where('id', '=', current.id)
        .execute();
      await recordChange(db, userId, sessionChange(next), deps.now());
      return next;
    });
    return sessionOf(c.var.db, row, deps.product, deps.now());
  });

  on('askSessionDelete', async (c, { params, auth }) => {
    const userId = auth.user.id;
    await transact(c, async (db) => {
      const row = await ownSession(db, userId, params.id);
      // Its messages go by foreign key (ON DELETE CASCADE).
      await db.deleteFrom('assistant_sessions').where('id', '=', row.id).execute();
      await recordChange(
        db,
        userId,
        { entity: 'assistant_session', entity_id: row.id, op: 'delete', data: toSummary(row) },
        deps.now(),
      );
    });
    return { ok: true as const };
  });

  on('askFeedback', async (c, { body, auth }) => {
    const updated = await transact(c, (db) =>
      db
        .updateTable('assistant_messages')
        .set({ feedback: body.feedback, feedback_message: body.message ?? null })
        .where('id', '=', body.message_id)
        .where('user_id', '=', auth.user.id)
        .executeTakeFirst(),
    );
    if (Number(updated.numUpdatedRows) === 0) {
      throw new ApiError(404, 'not_found', `no such message: ${body.message_id}`);
    }
    return { ok: true as const };
  });

  on('askMessaging', async (c, { query, auth }) =>
    suggestions(c.var.db, { userId: auth.user.id, product: deps.product }, query),
  );
};
