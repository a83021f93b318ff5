import { chatAttachmentOf, type ChatAttachment } from '../../contract/assistant-attachments';
import type { SessionMetadata } from '../../contract/assistant';
import type { UploadStatus } from '../../contract/uploads';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { searchScope } from '../search';
import type { AskTarget, Viewer } from './ask-scope';
import '../uploads';

/**
 * A chat's attachments (issue 20 item 7; contract/assistant-attachments.ts): the files of one
 * uploads feed of the caller's (upload_feeds, upload_files). A question asked with
 * `attachments_feed_id` is answered over that feed's processed documents only; a feed of
 * another user's, or none, is 404 as if it did not exist.
 */

const quoted = (s: string) => `“${s}”`;

/** The caller's uploads feed, or 404. */
async function ownFeed(db: Db, userId: string, feedId: string) {
  const feed = await db
    .selectFrom('upload_feeds')
    .select('id')
    .where('id', '=', feedId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!feed) throw new ApiError(404, 'not_found', `no such attachments: ${feedId}`);
}

const filesOf = (db: Db, userId: string, feedId: string) =>
  db
    .selectFrom('upload_files')
    .select([
      'key',
      'client_id',
      'name',
      'mime_type',
      'status',
      'size',
      'error',
      'document_id',
      'created_at',
    ])
    .where('user_id', '=', userId)
    .where('feed_id', '=', feedId)
    .orderBy('created_at')
    .orderBy('key')
    .execute();

/**
 * Where a question over the attachments of `feedId` is answered: the feed's COMPLETED
 * documents (in the user's own data, so the scope of "My Data" holds them), none other. A feed
 * with no processed file yet is a 400: the client sends only once every attachment is
 * COMPLETED.
 */
export async function attachedTarget(
  db: Db,
  viewer: Viewer,
  feedId: string,
  meta: Omit<SessionMetadata, 'type' | 'document_id'>,
): Promise<AskTarget> {
  await ownFeed(db, viewer.userId, feedId);
  const done = (await filesOf(db, viewer.userId, feedId)).filter(
    (f) => f.status === 'COMPLETED' && f.document_id !== null,
  );
  if (done.length === 0) {
    throw new ApiError(
      400,
      'bad_request',
      'attachments_feed_id: none of the attached files is processed yet',
    );
  }
  const ids = done.map((f) => f.document_id as string);
  return {
    scope: await searchScope(db, viewer, {}),
    documentIds: ids,
    type: 'document',
    metadata: {
      ...meta,
      type: 'document',
      document_id: ids,
      attachments_feed_id: feedId,
    },
    label: done.length === 1 ? quoted(done[0].name) : `your ${done.length} attached files`,
  };
}

type FileRow = Awaited<ReturnType<typeof filesOf>>[number];

const attachmentOf = (f: FileRow) =>
  chatAttachmentOf({
    id: f.client_id,
    name: f.name,
    mime_type: f.mime_type,
    status: f.status as UploadStatus,
    progress: f.size === null ? 0 : 100,
    key: f.key,
    error: f.error,
  });

/**
 * A session's `state.attachments` (its attachments feed's files, as the chat shows them) and
 * its messages, each question with the files attached for it: those added to the feed after
 * the question before it was asked, up to this one (the composer sends what it holds with
 * the next question), so a session reopened from history shows each question's files.
 */
export async function sessionAttachments<M extends { created_at: string }>(
  db: Db,
  userId: string,
  feedId: string | null | undefined,
  messages: M[],
): Promise<{
  attachments: ChatAttachment[];
  messages: Array<M & { attachments?: ChatAttachment[] }>;
}> {
  if (!feedId) return { attachments: [], messages };
  const files = await filesOf(db, userId, feedId);
  let after = '';
  const asked = messages.map((m) => {
    const mine = files.filter((f) => f.created_at > after && f.created_at <= m.created_at);
    after = m.created_at > after ? m.created_at : after;
    return mine.length ? { ...m, attachments: mine.map(attachmentOf) } : m;
  });
  return { attachments: files.map(attachmentOf), messages: asked };
}
