import { z } from 'zod';
import { boundedJsonObject, id, LIMITS, queryInt, text } from './define';
import { AskAnswer, AskMode, HOME_ID, universeId } from './assistant-answer';
import { ChatAttachment } from './assistant-attachments';

// ---------------------------------------------------------------------------------------------
// Sessions (001 §3 "Assistant session"), feedback, suggested questions

export const SESSION_TYPES = ['all', 'document', 'feed', 'channel', 'source', 'web', 'report'];
export const SessionType = z.enum(
  SESSION_TYPES as ['all', 'document', 'feed', 'channel', 'source', 'web', 'report'],
);
export type SessionType = z.infer<typeof SessionType>;
/** The history badge of each type (001 §2); all and web carry none. */
export const SESSION_BADGES: Partial<Record<SessionType, string>> = {
  document: 'Doc',
  feed: 'Feed',
  channel: 'Feed',
  source: 'Source',
  report: 'Report',
};

/** The parts a question's scope names, as GET /ml/ask-{product} takes them. */
export type ScopeParts = {
  document_id?: readonly string[] | null;
  source?: string | null;
  channel_id?: string | null;
  board_id?: string | null;
};

/**
 * Which kind a scope is (the session type): the most specific part it names wins: documents,
 * a source, a group (channel), the web (`{product}_universe`), a feed; else (`home` or
 * nothing) all of the user's data. The server answers from it; the worker types a new chat
 * with it before the server's session arrives.
 */
export function scopeType(parts: ScopeParts, product: string): SessionType {
  if (parts.document_id?.length) return 'document';
  if (parts.source != null) return 'source';
  if (parts.channel_id != null) return 'channel';
  if (parts.board_id === universeId(product)) return 'web';
  if (parts.board_id != null && parts.board_id !== HOME_ID) return 'feed';
  return 'all';
}

/** What a session is about (001 §3 metadata). */
export const SessionMetadata = z.object({
  type: SessionType,
  board_id: z.string().nullable(),
  channel_id: z.string().nullable(),
  document_id: z.array(z.string()),
  source: z.string().nullable(),
  report_id: z.string().nullable(),
  /** The session's attachments feed (contract/assistant-attachments.ts); absent: none. */
  attachments_feed_id: z.string().nullable().optional(),
});
export type SessionMetadata = z.infer<typeof SessionMetadata>;

export const BotMessageStatus = z.enum(['done', 'stopped', 'error']);
/** One exchange: the question and its answer as the server kept it. */
export const SessionMessage = z.object({
  /** The bot message's id (the answer's message_id). */
  id: z.string(),
  prompt: z.string(),
  mode: AskMode,
  /** The answer as streamed (all of it, or what came before a stop or failure). */
  answer: z.string(),
  data: AskAnswer.nullable(),
  status: BotMessageStatus,
  error: z.string().nullable(),
  feedback: z.enum(['CORRECT', 'INCORRECT']).nullable(),
  created_at: z.string(),
  /** The files attached for this question (its chat's attachments feed), shown on it. */
  attachments: z.array(ChatAttachment).optional(),
});
export type SessionMessage = z.infer<typeof SessionMessage>;

/** Client settings a session keeps (PUT state): free-form but bounded. */
export const SessionSettings = boundedJsonObject('settings');

export const SessionSummary = z.object({
  id: z.string(),
  sessionId: z.string(),
  title: z.string(),
  type: SessionType,
  updated_at: z.string(),
  created_at: z.string(),
  metadata: SessionMetadata,
  /** With `q`: the sentence of the session that matched. */
  matched_sentence: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

const TITLE_CHARS = 60;

/**
 * A new session's title from its first question: whitespace collapsed, cut at a word near 60
 * characters with an ellipsis (trailing punctuation dropped before it), first letter capital.
 * The server titles a session with it and the worker shows the same title before the
 * server's arrives, so the title does not change when it does.
 */
export function sessionTitle(prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  let title = flat;
  if (flat.length > TITLE_CHARS) {
    const cut = flat.slice(0, TITLE_CHARS + 1);
    const space = cut.lastIndexOf(' ');
    const words = space > TITLE_CHARS / 2 ? cut.slice(0, space) : flat.slice(0, TITLE_CHARS);
    title = `${words.replace(/[\s,;:.\-–—]+$/, '')}…`;
  }
  return title.charAt(0).toUpperCase() + title.slice(1);
}

export const AskSession = SessionSummary.extend({
  state: z.object({
    currentFeedOrDocumentId: z.string(),
    // As ChatState's (a notebook session is kept as a document scope over its notes).
    searchWithin: z.enum(['all', 'feed', 'document', 'notebook']),
    messages: z.array(SessionMessage),
    attachments: z.array(z.unknown()),
    attachmentsFeedId: z.string().nullable(),
    metadata: SessionMetadata,
    settings: SessionSettings,
  }),
});
export type AskSession = z.infer<typeof AskSession>;

export const SessionsQuery = z.object({
  q: text('q', 200).optional(),
  limit: queryInt('limit', 1, 500, 200),
});
export const SessionsAnswer = z.object({ sessions: z.array(SessionSummary) });

export const SessionPut = z
  .object({
    title: text('title', LIMITS.name).trim().min(1, { message: 'title must not be empty' }),
    state: z
      .object({ settings: SessionSettings.optional() })
      .partial()
      .passthrough()
      .superRefine((value, ctx) => {
        const size = JSON.stringify(value).length;
        if (size > LIMITS.jsonChars) {
          ctx.addIssue({ code: 'custom', message: `state is larger than ${LIMITS.jsonChars}` });
        }
      }),
  })
  .partial()
  .strict();
export type SessionPut = z.infer<typeof SessionPut>;

export const FeedbackValue = z.enum(['CORRECT', 'INCORRECT'], {
  message: 'feedback must be CORRECT or INCORRECT',
});
export const FeedbackBody = z
  .object({
    feedback: FeedbackValue,
    message_id: id('message_id'),
    message: text('message', LIMITS.text).optional(),
  })
  .strict();

export const Suggestion = z.object({ question: z.string(), icon: z.string() });
export type Suggestion = z.infer<typeof Suggestion>;
export const MessagingQuery = z.object({
  board_id: id('board_id').optional(),
  document_id: id('document_id').optional(),
});
/** Suggested questions (001 §7 "messaging"), drawn from the user's documents. */
export const MessagingAnswer = z.object({
  all: z.array(Suggestion),
  feed: z.array(Suggestion),
  document: z.array(Suggestion),
});
export type MessagingAnswer = z.infer<typeof MessagingAnswer>;

export const Ok = z.object({ ok: z.literal(true) });
