import { assistant, type SessionSummary } from '../../../contract/assistant';
import type { PatchItem } from '../../mirror';
import { defineWorkerDomain } from '../../registry';
import { askSend, askStop } from './assistant-ask';
import { askDetach } from './assistant-attachments';
import {
  askUnwatch,
  askWatch,
  chatsOf,
  createChats,
  setTitle,
  type Entry,
} from './assistant-chats';
import {
  MESSAGES,
  MESSAGES_SPEC,
  messageDeletes,
  SESSIONS,
  SESSIONS_SPEC,
  summaryOf,
  type Ctx,
  type MessageRecord,
  type S,
} from './assistant-store';
import { askSessions, readChatState, writeChatState } from './assistant-sessions';

const summaryIn = async (ctx: Ctx, id: string) =>
  (await ctx.mirror).get<SessionSummary>(SESSIONS, id);

const OK = { ok: true } as const;

/**
 * The assistant: chats streamed once per question and shown in every tab watching them
 * (assistant-ask.ts, assistant-chats.ts, assistant-live.ts), sessions and their exchanges
 * mirrored (assistant-store.ts) for history (assistant-sessions.ts), renames, deletes and
 * feedback optimistic through the outbox, and the chat state kept per user.
 */
export const assistantDomain = defineWorkerDomain(assistant, {
  state: createChats,
  stores: {
    assistant_sessions: SESSIONS_SPEC,
    assistant_messages: MESSAGES_SPEC,
  },
  reads: {
    'ask.send': (ctx, input, conn) => askSend(ctx, input, conn),
    'ask.stop': (ctx, { sessionId }) => askStop(ctx, sessionId),
    'ask.detach': (ctx, input) => askDetach(ctx, input),
    'ask.watch': (ctx, { sessionId }, conn) => askWatch(ctx, sessionId, conn),
    'ask.unwatch': (ctx, { sessionId }, conn) => askUnwatch(ctx, sessionId, conn),
    'ask.sessions': (ctx, { q }, conn) => askSessions(ctx, q, conn.variant),
    // Direct: a failure reaches the tab, which then hides its suggestions.
    'ask.suggestions': (ctx, query, conn) =>
      ctx.client.call('askMessaging', { query, variant: conn.variant, signal: ctx.signal() }),
    'ask.state': (ctx) => readChatState(ctx),
    'ask.setState': (ctx, patch) => writeChatState(ctx, patch),
  },
  mutations: {
    'ask.rename': {
      endpoint: 'askSessionPut',
      params: ({ sessionId }) => ({ id: sessionId }),
      body: ({ title }) => ({ title }),
      orderKey: ({ sessionId }) => sessionId,
      async optimistic(ctx, { sessionId, title }) {
        const live = chatsOf(ctx).lives.get(sessionId);
        if (live) setTitle(chatsOf(ctx), live, title);
        const summary = await summaryIn(ctx, sessionId);
        return summary ? [{ store: SESSIONS, key: sessionId, value: { ...summary, title } }] : [];
      },
      confirm: ({ sessionId }, result) => [
        { store: SESSIONS, key: sessionId, value: summaryOf(result) },
      ],
      output: () => OK,
      deferred: () => OK,
    },
    'ask.delete': {
      endpoint: 'askSessionDelete',
      params: ({ sessionId }) => ({ id: sessionId }),
      body: () => undefined,
      orderKey: ({ sessionId }) => sessionId,
      async optimistic(ctx, { sessionId }) {
        const chats = chatsOf(ctx);
        const live = chats.lives.get(sessionId);
        // Forgotten first: the stream's end then writes nothing of it back.
        chats.lives.delete(sessionId);
        if (live?.run && !live.run.ended) {
          live.run.ended = true;
          live.run.controller.abort();
        }
        const mirror = await ctx.mirror;
        const deletes: PatchItem<S>[] = await messageDeletes(mirror, sessionId);
        return [{ store: SESSIONS, key: sessionId }, ...deletes];
      },
      output: () => OK,
      deferred: () => OK,
    },
    'ask.feedback': {
      endpoint: 'askFeedback',
      orderKey: ({ message_id }) => message_id,
      async optimistic(ctx, { message_id, feedback }) {
        const chats = chatsOf(ctx);
        for (const live of chats.lives.values()) markFeedback(chats, live, message_id, feedback);
        const held = await (await ctx.mirror).get<MessageRecord>(MESSAGES, message_id);
        return held ? [{ store: MESSAGES, key: message_id, value: { ...held, feedback } }] : [];
      },
      output: () => OK,
      deferred: () => OK,
    },
  },
  changes: {
    assistant_session(change, tx) {
      if (change.op === 'upsert') return tx.put(SESSIONS, change.id, summaryOf(change.data));
      tx.put(SESSIONS, change.id, undefined);
      tx.after(async (ctx) => {
        const owner = ctx.owner();
        if (owner) await ctx.reads.store(await messageDeletes(await ctx.mirror, change.id), owner);
      });
    },
  },
  watch: {
    // A renamed session (here, elsewhere, or a rename rolled back): its open chat follows.
    async assistant_sessions(keys, { mirror, state: chats }) {
      if (!chats) return;
      const db = await mirror;
      for (const [id, live] of chats.lives) {
        if (keys && !keys.includes(id)) continue;
        const summary = await db.get<SessionSummary>(SESSIONS, id);
        if (summary) setTitle(chats, live, summary.title);
      }
    },
  },
});

/** The answer `messageId` (the server's id) of a chat takes the feedback; its tabs are told. */
function markFeedback(
  chats: ReturnType<typeof chatsOf>,
  live: Entry,
  messageId: string,
  feedback: 'CORRECT' | 'INCORRECT',
) {
  const hit = live.chat.messages.some((m) => m.type === 'bot' && m.data?.message_id === messageId);
  if (!hit) return;
  chats.updates.reset(live, (chat) => ({
    ...chat,
    messages: chat.messages.map((m) =>
      m.type === 'bot' && m.data?.message_id === messageId ? { ...m, feedback } : m,
    ),
  }));
}
