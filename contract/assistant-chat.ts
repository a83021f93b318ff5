import { z } from 'zod';
import { id } from './define';
import { AskAnswer, AskMode, AskStep, HOME_ID, MAX_ASK_DOCUMENTS } from './assistant-answer';
import { SessionMetadata } from './assistant-sessions';

// ---------------------------------------------------------------------------------------------
// The worker's view: a chat (one session's messages as a tab shows them) and its live updates

/** 001 §3 "Chat state" kept by the worker (per user, shared by the tabs). */
export const ChatState = z.object({
  /** `notebook`: within one of the user's notebooks (its id in currentFeedOrDocumentId). */
  searchWithin: z.enum(['all', 'feed', 'document', 'notebook']),
  /** `home`, a feed, document or notebook id, or `{product}_universe` (web search). */
  currentFeedOrDocumentId: z.string(),
  webSearch: z.boolean(),
  lastActiveSessionId: z.string().nullable(),
  report: z.object({
    enabled: z.boolean(),
    info: z.unknown().nullable(),
    sources: z.array(z.string()),
  }),
});
export type ChatState = z.infer<typeof ChatState>;

/** The chat state of a user who has none yet: all data (the home feed), no web, no session. */
export const DEFAULT_CHAT_STATE: ChatState = {
  searchWithin: 'all',
  currentFeedOrDocumentId: HOME_ID,
  webSearch: false,
  lastActiveSessionId: null,
  report: { enabled: false, info: null, sources: [] },
};

/** A bot message while it streams and after (001 §3 "Bot message"). */
export const ChatBotMessage = z.object({
  type: z.literal('bot'),
  id: z.string(),
  prompt: z.string(),
  mode: AskMode,
  /** Asked with pro=true (the answer shows a PRO badge); absent when not known. */
  pro: z.boolean().optional(),
  /** loading: before the first chunk; streaming; citing; then done, stopped or error. */
  phase: z.enum(['loading', 'streaming', 'citing', 'done', 'stopped', 'error']),
  streamingAnswer: z.string(),
  intermediateSteps: z.array(AskStep),
  data: AskAnswer.nullable(),
  generatingStopped: z.boolean(),
  error: z.string().nullable(),
  feedback: z.enum(['CORRECT', 'INCORRECT']).nullable(),
});
export type ChatBotMessage = z.infer<typeof ChatBotMessage>;
export const ChatUserMessage = z.object({
  type: z.literal('user'),
  id: z.string(),
  botMessageId: z.string(),
  prompt: z.string(),
  attachments: z.array(z.unknown()),
});
export type ChatUserMessage = z.infer<typeof ChatUserMessage>;
export const ChatMessage = z.discriminatedUnion('type', [ChatUserMessage, ChatBotMessage]);
export type ChatMessage = z.infer<typeof ChatMessage>;

export const Chat = z.object({
  sessionId: z.string(),
  title: z.string(),
  metadata: SessionMetadata,
  messages: z.array(ChatMessage),
  /** A question of this session is streaming now (in this worker). */
  streaming: z.boolean(),
});
export type Chat = z.infer<typeof Chat>;

/**
 * A live update of a chat, sent to the tabs watching it at most once per frame. `reset`: the
 * whole chat (a new question, a session loaded). `patch`: the streaming bot message: `append`
 * is what arrived since the last patch, `length` the answer's length after it (a tab whose
 * text length differs asks for the chat again).
 */
export const ChatUpdate = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reset'), chat: Chat }),
  z.object({
    kind: z.literal('patch'),
    messageId: z.string(),
    append: z.string(),
    length: z.number().int().nonnegative(),
    phase: ChatBotMessage.shape.phase,
    steps: z.array(AskStep).optional(),
    data: AskAnswer.nullable().optional(),
    error: z.string().nullable().optional(),
    generatingStopped: z.boolean().optional(),
    title: z.string().optional(),
  }),
]);
export type ChatUpdate = z.infer<typeof ChatUpdate>;

/** Where a question is asked (the chat state's scope). */
export const AskScope = z.object({
  searchWithin: z.enum(['all', 'feed', 'document']),
  currentFeedOrDocumentId: id('currentFeedOrDocumentId'),
  /** The document's source, for a document scope (its preview links need it). */
  source: id('source').optional(),
  channel_id: id('channel_id').optional(),
  /** A notebook: asked over its notes alone (AskQuery `notebook_id`). */
  notebook_id: id('notebook_id').optional(),
  document_ids: z.array(id('document_ids[]')).max(MAX_ASK_DOCUMENTS).optional(),
  /** The chat's attachments feed: asked over the attached files only. */
  attachments_feed_id: id('attachments_feed_id').optional(),
});
export type AskScope = z.infer<typeof AskScope>;
