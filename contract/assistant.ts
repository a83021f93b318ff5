import { z } from 'zod';
import {
  boundedJsonObject,
  defineDomain,
  endpoint,
  id,
  LIMITS,
  op,
  queryInt,
  text,
} from './define';
import { TextSpan, TimeZone } from './search';

export { TextSpan };

/**
 * The assistant (001): questions answered as server-sent events with citations, sessions and
 * their history, feedback and suggested questions. GET /ml/ask-{product} streams; it is not an
 * endpoint of the catalogue (its answer is a stream, not JSON), like /sync/live: its query is
 * AskQuery, each event one `data:` line holding AskEvent JSON, or a line starting `[ERROR]`.
 * Designed here where 001 says "not shown": the feedback, messaging and session paths, `mode`
 * (search mode), the `highlight` of preview links, and the worker's ops and events.
 */

export const ASK_PATH = '/ml/ask-{product}';
/** `{product}_universe`: the web (the public corpus) as a scope and a session group (001 §9). */
export const universeId = (product: string) => `${product}_universe`;
export const HOME_ID = 'home';

export const MAX_PROMPT_CHARS = 4_000;
export const MAX_ASK_DOCUMENTS = 50;
/** Passages the answerers read at most for one question. */
export const ASK_PASSAGES = 12;

// ---------------------------------------------------------------------------------------------
// The question (001 §7 "GET assistant streaming endpoint")

const flag = (field: string) =>
  z
    .enum(['true', 'false'], { message: `${field} must be true or false` })
    .transform((v) => v === 'true');

export const AskMode = z.enum(['answer', 'search'], { message: 'mode must be answer or search' });
export type AskMode = z.infer<typeof AskMode>;

/**
 * The query of GET /ml/ask-{product}. Scope, the most specific first: document_id (one or more
 * documents), source, channel_id, board_id (a feed, `home`, or `{product}_universe` for the web);
 * none: all the user's data. `session_id` continues a session, or names a new one (a client
 * may choose the id of a session it starts: the server creates it under that id).
 */
export const AskQuery = z.object({
  prompt: z
    .string({ message: 'prompt must be text' })
    .trim()
    .min(1, { message: 'Question must be non-empty' })
    .max(MAX_PROMPT_CHARS, { message: `prompt must be at most ${MAX_PROMPT_CHARS} characters` }),
  stream: z.literal('true', { message: 'stream must be true' }).default('true'),
  timezone: TimeZone.default('UTC'),
  pro: flag('pro').default(false),
  source: id('source').optional(),
  session_id: id('session_id')
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'session_id must be letters, digits, - and _' })
    .optional(),
  /** Repeated in the query string (`document_id=a&document_id=b`). */
  document_id: z
    .union([id('document_id'), z.array(id('document_id'))])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z.array(z.string()).max(MAX_ASK_DOCUMENTS, {
        message: `document_id may be repeated at most ${MAX_ASK_DOCUMENTS} times`,
      }),
    )
    .optional(),
  board_id: id('board_id').optional(),
  channel_id: id('channel_id').optional(),
  /** `search`: answer_type SEARCH, matching results with highlights instead of an answer. */
  mode: AskMode.default('answer'),
});
export type AskQueryInput = z.input<typeof AskQuery>;
export type AskQuery = z.infer<typeof AskQuery>;

// ---------------------------------------------------------------------------------------------
// What an answer carries (001 §3)

export const Point = z.object({ x: z.number(), y: z.number() });
/** Where a passage sits on a page of a document with positions (a PDF): 4 corners. */
export const DocumentHighlight = z.object({
  coordinates: z.array(Point).length(4),
  width: z.number(),
  height: z.number(),
  page_number: z.number().int().min(1),
});
export type DocumentHighlight = z.infer<typeof DocumentHighlight>;

/**
 * One cited passage (001 §3 "Citation"). `id` is its number in the answer: `[n]` in the answer
 * text refers to the citation whose id is "n". `context` is the passage's text and
 * `highlight_indexes` the spans of it that support the sentence; `passage` is the passage's
 * span in the document's plain text (preview links mark it). `{product}_document_link` (the
 * in-app preview path) is carried under that product-named key (documentLinkKey).
 */
export const Citation = z.looseObject({
  id: z.string(),
  document_id: z.string(),
  public_access_key: z.string().nullable(),
  access_key: z.string().nullable(),
  source: z.string(),
  category_tab: z.string().nullable(),
  channel_id: z.string().nullable(),
  mime_type: z.string(),
  document_highlight: DocumentHighlight.nullable(),
  /** The original address (http or https), or null. */
  url: z.string().nullable(),
  title_label: z.string(),
  source_label: z.string(),
  /** Published time, unix seconds. */
  unix: z.number().int(),
  /** true when the document is text only (no original to open). */
  content_only: z.boolean(),
  highlight_indexes: z.array(TextSpan),
  context: z.string(),
  passage: TextSpan,
});
export type Citation = z.infer<typeof Citation>;
export const documentLinkKey = (product: string) => `${product}_document_link`;

/** A search-mode result (001 §3 "Search result"): highlights are HTML with only <em> marks. */
export const AskSearchResult = z.object({
  document_id: z.string(),
  mime_type: z.string(),
  title_label: z.string(),
  source_label: z.string(),
  source: z.string(),
  category_tab: z.string().nullable(),
  access_key: z.string().nullable(),
  unix: z.number().int(),
  url: z.string().nullable(),
  highlights: z.array(z.string()),
  /** Spans of the highlights in the document's plain text. */
  highlight_indexes: z.array(TextSpan),
  /** Page boxes of the highlights, for documents with positions (empty otherwise). */
  highlighted_coordinates: z.array(DocumentHighlight),
});
export type AskSearchResult = z.infer<typeof AskSearchResult>;

export const AnswerSentence = z.object({ sentence: z.string(), citations: z.array(Citation) });
export type AnswerSentence = z.infer<typeof AnswerSentence>;

export const ANSWER_TYPES = ['ANSWER', 'SEARCH'] as const;
export const AnswerType = z.enum(ANSWER_TYPES);
/** LOW: weak evidence; GENERATIVE: the answer cites nothing; HIGH: every claim cited. */
export const AnswerQuality = z.enum(['HIGH', 'LOW', 'GENERATIVE']);
export type AnswerQuality = z.infer<typeof AnswerQuality>;

/** DONE's data (001 §3 "Answer data"). */
export const AskAnswer = z.object({
  answer_type: AnswerType,
  /** SEARCH: the matching results; ANSWER: the documents the passages were read from. */
  retrieved_results: z.array(AskSearchResult),
  generated_answer: z.object({ answer: z.string(), sentences: z.array(AnswerSentence) }),
  followup_questions: z.array(z.string()),
  message_id: z.string(),
  answer_quality: AnswerQuality,
  session_id: z.string(),
});
export type AskAnswer = z.infer<typeof AskAnswer>;

/** One step the server took (INTERMEDIATE_STEP): loading until it finished. */
export const AskStep = z.object({ id: z.string(), text: z.string(), loading: z.boolean() });
export type AskStep = z.infer<typeof AskStep>;

/** One server-sent event (001 §3 "Stream event"). Each INTERMEDIATE_STEP carries every step. */
export const AskEvent = z.discriminatedUnion('status', [
  z.object({ status: z.literal('INTERMEDIATE_STEP'), data: z.object({ steps: z.array(AskStep) }) }),
  z.object({ status: z.literal('GENERATED_ANSWER'), data: z.object({ answer_chunk: z.string() }) }),
  z.object({ status: z.literal('GENERATING_CITATIONS'), data: z.object({}) }),
  z.object({ status: z.literal('DONE'), data: AskAnswer }),
]);
export type AskEvent = z.infer<typeof AskEvent>;
/** A data line starting with this is a failure; the rest of the line says what failed. */
export const ASK_ERROR_PREFIX = '[ERROR]';

// ---------------------------------------------------------------------------------------------
// Citation links (001 §2 "Citation links and preview")

/**
 * /preview/{source}/{document_id}?category_tab&channel_id&access_key&public_access_key&highlight,
 * built only when source, document id, one of the keys and category_tab all exist.
 * `highlight` is `start-end` in the document's plain text (the cited passage).
 */
export function citationPreviewHref(c: {
  source?: string | null;
  document_id?: string | null;
  access_key?: string | null;
  public_access_key?: string | null;
  category_tab?: string | null;
  channel_id?: string | null;
  passage?: { start: number; end: number } | null;
}): string | null {
  if (!c.source || !c.document_id || !c.category_tab) return null;
  if (!c.access_key && !c.public_access_key) return null;
  const q = new URLSearchParams({ category_tab: c.category_tab });
  if (c.channel_id) q.set('channel_id', c.channel_id);
  if (c.access_key) q.set('access_key', c.access_key);
  if (c.public_access_key) q.set('public_access_key', c.public_access_key);
  if (c.passage) q.set('highlight', `${c.passage.start}-${c.passage.end}`);
  return `/preview/${encodeURIComponent(c.source)}/${encodeURIComponent(c.document_id)}?${q}`;
}

/** Citations travel as `label:: url` strings (001 §2). */
export const citationLink = (label: string, url: string) => `${label}:: ${url}`;
export function parseCitationLink(value: string): { label: string; url: string | null } {
  const at = value.indexOf(':: ');
  if (at < 0) return { label: value, url: null };
  return { label: value.slice(0, at), url: value.slice(at + 3).trim() };
}
/** A citation link is clickable only when it parses as an http or https URL (001 §2). */
export function clickableUrl(url: string | null, base = 'https://app.invalid'): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

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

/** What a session is about (001 §3 metadata). */
export const SessionMetadata = z.object({
  type: SessionType,
  board_id: z.string().nullable(),
  channel_id: z.string().nullable(),
  document_id: z.array(z.string()),
  source: z.string().nullable(),
  report_id: z.string().nullable(),
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

export const AskSession = SessionSummary.extend({
  state: z.object({
    currentFeedOrDocumentId: z.string(),
    searchWithin: z.enum(['all', 'feed', 'document']),
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

// ---------------------------------------------------------------------------------------------
// The worker's view: a chat (one session's messages as a tab shows them) and its live updates

/** 001 §3 "Chat state" kept by the worker (per user, shared by the tabs). */
export const ChatState = z.object({
  searchWithin: z.enum(['all', 'feed', 'document']),
  /** `home`, a feed or document id, or `{product}_universe` (web search). */
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
  document_ids: z.array(id('document_ids[]')).max(MAX_ASK_DOCUMENTS).optional(),
});
export type AskScope = z.infer<typeof AskScope>;

export const ASK_STORES = ['assistant_sessions', 'assistant_messages'] as const;

export const assistant = defineDomain({
  name: 'assistant',
  endpoints: {
    askSessions: endpoint({
      method: 'get',
      path: '/ml/ask-{product}/sessions',
      auth: true,
      query: SessionsQuery,
      response: SessionsAnswer,
      status: 200,
      summary: "The user's assistant sessions, newest first; with q, those matching it",
    }),
    askSession: endpoint({
      method: 'get',
      path: '/ml/ask-{product}/sessions/{id}',
      auth: true,
      response: AskSession,
      status: 200,
      summary: 'One session with its messages',
    }),
    askSessionPut: endpoint({
      method: 'put',
      path: '/ml/ask-{product}/sessions/{id}',
      auth: true,
      body: SessionPut,
      response: AskSession,
      status: 200,
      summary: "Rename a session or keep the client's settings for it",
    }),
    askSessionDelete: endpoint({
      method: 'delete',
      path: '/ml/ask-{product}/sessions/{id}',
      auth: true,
      response: Ok,
      status: 200,
      summary: 'Delete a session and its messages',
    }),
    askFeedback: endpoint({
      method: 'post',
      path: '/ml/ask-{product}/feedback',
      auth: true,
      body: FeedbackBody,
      response: Ok,
      status: 200,
      summary: 'Feedback on an answer: CORRECT or INCORRECT, with an optional message',
    }),
    askMessaging: endpoint({
      method: 'get',
      path: '/ml/ask-{product}/messaging',
      auth: true,
      query: MessagingQuery,
      response: MessagingAnswer,
      status: 200,
      summary: "Suggested questions for all data, a feed and a document, from the user's data",
    }),
  },
  ops: {
    /** Ask in a chat (a new one when sessionId is absent): answers at once; it streams on. */
    'ask.send': op(
      z.object({
        prompt: AskQuery.shape.prompt,
        sessionId: id('sessionId').optional(),
        scope: AskScope,
        mode: AskMode.default('answer'),
        pro: z.boolean().default(false),
        timezone: z.string().max(64).default('UTC'),
      }),
      z.object({ sessionId: z.string(), messageId: z.string() }),
    ),
    /** Stop the answer streaming in this session (marks it generatingStopped). */
    'ask.stop': op(z.object({ sessionId: id('sessionId') }), z.object({ stopped: z.boolean() })),
    /** This tab shows the session: answers the chat; 'ask' events follow until unwatch. */
    'ask.watch': op(z.object({ sessionId: id('sessionId') }), Chat),
    'ask.unwatch': op(z.object({ sessionId: id('sessionId') }), z.object({})),
    /** History: the mirror's sessions at once, then the server's (a 'changed' event). */
    'ask.sessions': op(
      z.object({ q: z.string().max(200).optional() }),
      z.object({ sessions: z.array(SessionSummary), fresh: z.boolean() }),
    ),
    'ask.rename': op(
      z.object({ sessionId: id('sessionId'), title: SessionPut.shape.title.unwrap() }),
      Ok,
    ),
    'ask.delete': op(z.object({ sessionId: id('sessionId') }), Ok),
    'ask.feedback': op(FeedbackBody, Ok),
    'ask.suggestions': op(MessagingQuery, MessagingAnswer),
    'ask.state': op(z.object({}), ChatState),
    'ask.setState': op(ChatState.partial(), ChatState),
  },
  changes: {
    /** A session was created, renamed, answered or deleted (another tab or device). */
    assistant_session: SessionSummary,
  },
  stores: ASK_STORES,
});
