import { z } from 'zod';
import { defineDomain, endpoint, id, op } from './define';
import { AskMode, AskQuery } from './assistant-answer';
import { ChatAttachment, DetachInput, MAX_CHAT_ATTACHMENTS } from './assistant-attachments';
import { AskScope, Chat, ChatState } from './assistant-chat';
import {
  FeedbackBody,
  MessagingAnswer,
  MessagingQuery,
  Ok,
  SessionPut,
  SessionsAnswer,
  SessionsQuery,
  SessionSummary,
  AskSession,
} from './assistant-sessions';

export * from './assistant-answer';
export * from './assistant-sessions';
export * from './assistant-chat';

/**
 * The assistant (001): questions answered as server-sent events with citations, sessions and
 * their history, feedback and suggested questions. GET /ml/ask-{product} streams; it is not an
 * endpoint of the catalogue (its answer is a stream, not JSON), like /sync/live: its query is
 * AskQuery, each event one `data:` line holding AskEvent JSON, or a line starting `[ERROR]`.
 * Designed here where 001 says "not shown": the feedback, messaging and session paths, `mode`
 * (search mode), the `highlight` of preview links, and the worker's ops and events.
 */

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
        /** The attachments sent with the question (shown on its user message). */
        attachments: z.array(ChatAttachment).max(MAX_CHAT_ATTACHMENTS).optional(),
      }),
      z.object({ sessionId: z.string(), messageId: z.string() }),
    ),
    /** An attachment taken off before its question is sent leaves its uploads feed. */
    'ask.detach': op(DetachInput, Ok),
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
