import type { AskAnswer, AskSession, Citation } from '../../../contract/assistant';
import type { ChatAttachment } from '../../../contract/assistant-attachments';
import {
  SessionSummary,
  type assistant,
  type Chat,
  type ChatBotMessage,
  type ChatMessage,
  type SessionMessage,
  type SessionMetadata,
} from '../../../contract/assistant';
import type { Mirror, PatchItem, StoreSpec } from '../../mirror';
import type { DomainContext, StoreOf } from '../../registry';
import { ownKey } from '../fresh';

/**
 * The assistant's mirror: 'assistant_sessions' holds each session's summary (the history list,
 * newest first by the `updated` index); 'assistant_messages' holds the exchanges of the
 * sessions a tab opened or asked in, one record per answer, read in order by the `session`
 * index ([session_id, seq]). A chat (the worker's view of a session) is made from both.
 */

export type S = StoreOf<typeof assistant>;
export type Ctx = DomainContext<S>;
export const SESSIONS = 'assistant_sessions' satisfies S;
export const MESSAGES = 'assistant_messages' satisfies S;

/** Not a session: says the list was fetched once (constant, so a refetch announces no change). */
export const LIST_MARK = ownKey('list');

export type MessageRecord = SessionMessage & { session_id: string; seq: number };

export const SESSIONS_SPEC: StoreSpec = {
  keyPath: 'id',
  // The list mark has no `updated_at`: the index holds the sessions only.
  indexes: { updated: { keyPath: 'updated_at' } },
  version: 1,
};
export const MESSAGES_SPEC: StoreSpec = {
  keyPath: 'id',
  indexes: { session: { keyPath: ['session_id', 'seq'] } },
  version: 1,
};

/** The user's sessions in the mirror, newest first. */
export const readSessions = async (mirror: Mirror<S>) =>
  mirror.range<SessionSummary>(SESSIONS, { index: 'updated', direction: 'prev' });

export const readMessages = async (mirror: Mirror<S>, sessionId: string) =>
  mirror.range<MessageRecord>(MESSAGES, {
    index: 'session',
    lower: [sessionId],
    upper: [sessionId, Infinity],
  });

/** A session's summary as the list shows it (an AskSession without its state). */
export const summaryOf = (session: SessionSummary | AskSession): SessionSummary =>
  SessionSummary.parse({ ...session, matched_sentence: null });

/** Deletes of every mirrored message of `sessionId` (a replacement, or the session deleted). */
export async function messageDeletes(mirror: Mirror<S>, sessionId: string) {
  const held = await readMessages(mirror, sessionId);
  return held.map((m): PatchItem<S> => ({ store: MESSAGES, key: m.id }));
}

/** The writes that make the mirror hold `summary` with exactly `messages`. */
export async function sessionWrites(
  mirror: Mirror<S>,
  summary: SessionSummary,
  messages: SessionMessage[],
): Promise<PatchItem<S>[]> {
  const keep = new Set(messages.map((m) => m.id));
  const gone = (await messageDeletes(mirror, summary.id)).filter((d) => !keep.has(d.key));
  return [
    ...gone,
    { store: SESSIONS, key: summary.id, value: summary },
    ...messages.map((m, seq): PatchItem<S> => ({
      store: MESSAGES,
      key: m.id,
      value: { ...m, session_id: summary.id, seq } satisfies MessageRecord,
    })),
  ];
}

/** The writes of a session as the server answered it (AskSession). */
export const serverSessionWrites = (mirror: Mirror<S>, session: AskSession) =>
  sessionWrites(mirror, summaryOf(session), session.state.messages);

/**
 * An answer whose equal citations are one object. The server sends each sentence its own copy
 * of a citation, passage text included; a long answer cites the same passage, with the same
 * highlights, hundreds of times. Shared objects are cloned once when the chat goes to a tab or
 * into IndexedDB (structured clone keeps identity), so DONE reaching a tab costs a deserialize
 * of the distinct citations, not of megabytes of repeated passages. Nothing is lost: only
 * citations equal in every field are merged.
 */
export function internCitations(data: AskAnswer): AskAnswer {
  const seen = new Map<string, Citation>();
  const one = (c: Citation) => {
    const key = JSON.stringify(c);
    const held = seen.get(key);
    if (held) return held;
    seen.set(key, c);
    return c;
  };
  const sentences = data.generated_answer.sentences.map((s) => ({
    ...s,
    citations: s.citations.map(one),
  }));
  return { ...data, generated_answer: { ...data.generated_answer, sentences } };
}

const PHASE_OF = { done: 'done', stopped: 'stopped', error: 'error' } as const;

/** A kept exchange as the chat shows it: the question, then its answer. */
export function chatMessagesOf(messages: SessionMessage[]): ChatMessage[] {
  return messages.flatMap((m): ChatMessage[] => [
    {
      type: 'user',
      id: `${m.id}:q`,
      botMessageId: m.id,
      prompt: m.prompt,
      // The files attached for this question (the server's, or kept when it was asked here).
      attachments: m.attachments ?? [],
    },
    {
      type: 'bot',
      id: m.id,
      prompt: m.prompt,
      mode: m.mode,
      phase: PHASE_OF[m.status],
      streamingAnswer: m.answer,
      intermediateSteps: [],
      data: m.data && internCitations(m.data),
      generatingStopped: m.status === 'stopped',
      error: m.error,
      feedback: m.feedback,
    },
  ]);
}

export const chatOf = (
  summary: { id: string; title: string; metadata: SessionMetadata },
  messages: SessionMessage[],
): Chat => ({
  sessionId: summary.id,
  title: summary.title,
  metadata: summary.metadata,
  messages: chatMessagesOf(messages),
  streaming: false,
});

const ENDED = new Set<ChatBotMessage['phase']>(['done', 'stopped', 'error']);

/**
 * The chat's finished exchanges as the server keeps them. A done answer is kept under the
 * server's message id (feedback names it); a stopped or failed one under the chat's own id
 * (the stream ended before the server said its id).
 */
export function keptMessages(chat: Chat, now: string): SessionMessage[] {
  const bots = chat.messages.filter(
    (m): m is ChatBotMessage => m.type === 'bot' && ENDED.has(m.phase),
  );
  const attachedTo = new Map(
    chat.messages.flatMap((m) =>
      m.type === 'user' && m.attachments.length
        ? [[m.botMessageId, m.attachments as ChatAttachment[]] as const]
        : [],
    ),
  );
  return bots.map((m) => ({
    id: m.data?.message_id ?? m.id,
    prompt: m.prompt,
    ...(attachedTo.has(m.id) ? { attachments: attachedTo.get(m.id) } : {}),
    mode: m.mode,
    answer: m.streamingAnswer,
    data: m.data,
    status: m.phase === 'done' ? 'done' : m.phase === 'stopped' ? 'stopped' : 'error',
    error: m.error,
    feedback: m.feedback,
    created_at: now,
  }));
}
