import { z } from 'zod';
import { id } from './define';
import { extensionOf } from './upload-files';
import { UploadStatus } from './uploads';

/**
 * Files attached to an assistant chat (issue 20 item 7; 001 §2-5). An attachment is an
 * uploaded file (contract/uploads.ts, the same upload calls and the worker's one status
 * poll); the first attach of a chat makes an uploads feed (POST /upload/complete), later ones
 * add to it (PUT with `action: add`), and that feed is the session's `attachmentsFeedId`. A
 * question asked with `attachments_feed_id` is answered over that feed's processed documents
 * only (GET /ml/ask-{product}); another user's feed is 404 as if it did not exist.
 *
 * Designed here where the spec says "not shown":
 * - The ask query's `attachments_feed_id` (with it, every other scope part is ignored), and the
 *   session metadata's `attachments_feed_id`, so follow-ups (on any device) keep asking over
 *   the attached files. Such a session is typed `document`, its `document_id` the attached
 *   documents when it began.
 * - An attachment as the chat and the session's `state.attachments` carry it: 001 §3's fields
 *   but `file` (the bytes stay with the upload).
 * - `ask.detach`: an attachment taken off before its question is sent leaves the feed (PUT
 *   /upload/complete `action: remove`), so it is not asked over.
 */

/** 001 §3 "Attachment", without `file`. */
export const ChatAttachment = z.object({
  /** The client's id of the file (upload init's `id`). */
  id: z.string(),
  name: z.string(),
  mime_type: z.string(),
  /** The extension: pdf, docx, md... ('' when the name has none). */
  file_type: z.string(),
  status: UploadStatus,
  progress: z.number().min(0).max(100),
  bucket: z.string().nullable(),
  key: z.string().nullable(),
  /** The status's words (UPLOADING_ERROR, FAILED), else null. */
  error: z.string().nullable(),
});
export type ChatAttachment = z.infer<typeof ChatAttachment>;

export const MAX_CHAT_ATTACHMENTS = 100;

export const DetachInput = z.object({
  feed_id: id('feed_id'),
  /** The attachment's storage key and name (the removal names it when it fails). */
  key: id('key'),
  name: z.string().max(255),
  id: id('id'),
});
export type DetachInput = z.infer<typeof DetachInput>;

/** The drop area's text (001 §2). */
export const DROP_FILES_TEXT = 'Drop files here';

/** What an attachment is made of, from a file the client or the server knows. */
export const chatAttachmentOf = (f: {
  id: string;
  name: string;
  mime_type: string;
  status: UploadStatus;
  progress: number;
  key: string | null;
  bucket?: string | null;
  error: string | null;
}): ChatAttachment => ({
  id: f.id,
  name: f.name,
  mime_type: f.mime_type,
  file_type: extensionOf(f.name),
  status: f.status,
  progress: f.progress,
  bucket: f.bucket ?? null,
  key: f.key,
  error: f.error,
});

/** The state the attach controls are judged on (001 §2, §5). */
export type AttachState = {
  /** The flag ask_{product}_upload. */
  uploadOn: boolean;
  /** The upload configuration is still being read. */
  configsLoading: boolean;
  webSearch: boolean;
  /** The chat asks over the home feed (all data). */
  onHomeFeed: boolean;
  hasMessages: boolean;
  attachmentsFeedId: string | null;
  attachments: ReadonlyArray<{ status: UploadStatus }>;
};

/** Every attachment is COMPLETED (none at all counts as complete). */
export const attachmentsComplete = (attachments: ReadonlyArray<{ status: UploadStatus }>) =>
  attachments.every((a) => a.status === 'COMPLETED');

/**
 * The attach button is disabled "while configs load, in web-search mode, when the chat has
 * messages but no attachment feed, or while uploads are not all completed" (001 §5). Without
 * the flag it is not shown at all.
 */
export const attachButtonDisabled = (s: AttachState): boolean => attachBlockedBy(s) !== null;

/** Why the attach button is disabled, in words for its tooltip; null when it is not. */
export const attachBlockedBy = (s: AttachState): string | null => {
  if (!s.uploadOn) return 'Attaching files is not available';
  if (s.configsLoading) return 'Loading the upload settings…';
  if (s.webSearch) return 'Files cannot be attached in web search';
  if (s.hasMessages && s.attachmentsFeedId === null) {
    return 'This chat began without attachments: start a new chat to attach files';
  }
  if (!attachmentsComplete(s.attachments)) return 'Wait until every attachment is processed';
  return null;
};

/**
 * The drop area is disabled "when the upload feature is off, on the home feed, when messages
 * exist but there is no attachments feed, or while attachments are incomplete" (001 §2).
 */
export const dropDisabled = (s: AttachState): boolean =>
  !s.uploadOn ||
  s.onHomeFeed ||
  (s.hasMessages && s.attachmentsFeedId === null) ||
  !attachmentsComplete(s.attachments);

/** Sending is disabled "while any attachment is not COMPLETED" (001 §4.10). */
export const attachmentsBlockSending = (attachments: ReadonlyArray<{ status: UploadStatus }>) =>
  !attachmentsComplete(attachments);
