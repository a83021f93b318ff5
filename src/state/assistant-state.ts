import { batch, signal } from '@preact/signals-react';
import { DEFAULT_CHAT_STATE, type AskMode, type AskScope } from '../../contract/assistant';
import type { WorkspaceClient } from '../workspace-client';
import type { ChatAttachment } from '../../contract/assistant-attachments';
import { createAttachments } from './assistant-attachments';
import { createChatStateStore } from './assistant-chat-state';
import { createChatWatch, type PendingQuestion } from './assistant-watch';

export type { PendingQuestion } from './assistant-watch';

export type AssistantStateDeps = {
  client: WorkspaceClient;
  /** The browser's time zone for answers that mention dates. */
  timezone: () => string;
};

/**
 * The assistant's signals in one tab (the only writer: ARCHITECTURE "The UI"): the active
 * session, the question on its way, the watched chat (assistant-watch.ts) and the chat state
 * (assistant-chat-state.ts). The full page and the overlay share this state; while neither is
 * shown the tab stops watching, so the worker sends it nothing.
 */
export function createAssistantState(deps: AssistantStateDeps) {
  const { client } = deps;
  /** The active session (null: a new chat). */
  const $sessionId = signal<string | null>(null);
  const $pending = signal<PendingQuestion | null>(null);
  const chat = createChatWatch(client, $pending);
  const chatState = createChatStateStore(client);
  client.onEvent(chat.handle);
  const attachments = createAttachments(client);
  /** Screens showing the chat now. */
  let views = 0;

  /** Makes a session the active one (null: a new, empty chat). */
  const open = (sessionId: string | null) => {
    if (sessionId === $sessionId.peek()) return;
    chat.unwatch();
    attachments.clear();
    batch(() => {
      $sessionId.value = sessionId;
      chat.$chat.value = null;
      $pending.value = null;
      chat.$openFailed.value = false;
    });
    if (sessionId === null) return;
    if (views > 0) void chat.watch(sessionId);
    void chatState.setChatState({ lastActiveSessionId: sessionId });
  };

  /** A screen shows the chat: watch while any does. Returns the detach. */
  const attach = () => {
    views += 1;
    const id = $sessionId.peek();
    if (views === 1 && id !== null && !chat.watching()) void chat.watch(id);
    return () => {
      views -= 1;
      if (views === 0) chat.unwatch();
    };
  };

  /** Asks in the active chat (a new session when there is none); resolves with its id. */
  const send = async (input: {
    prompt: string;
    mode: AskMode;
    pro: boolean;
    scope: AskScope;
    attachments?: ChatAttachment[];
  }) => {
    const sessionId = $sessionId.peek();
    $pending.value = { prompt: input.prompt, failed: false };
    try {
      const answer = await client.call('ask.send', {
        ...input,
        sessionId: sessionId ?? undefined,
        timezone: deps.timezone(),
      });
      if (answer.sessionId !== $sessionId.peek()) {
        open(answer.sessionId);
        $pending.value = { prompt: input.prompt, failed: false };
      }
      // In a watched session the worker resets the chat with the new question.
      return answer.sessionId;
    } catch (error) {
      $pending.value = { prompt: input.prompt, failed: true };
      throw error;
    }
  };

  const stop = () => {
    const sessionId = $sessionId.peek();
    if (!sessionId) return Promise.resolve();
    return client.call('ask.stop', { sessionId }).then(
      () => {},
      () => {},
    );
  };

  return {
    $chat: chat.$chat,
    $sessionId,
    $chatState: chatState.$chatState,
    $chatStateReady: chatState.$chatStateReady,
    $pending,
    /** The files attached to the next question (assistant-attachments.ts). */
    attachments,
    /** Loading the active session's messages failed. */
    $openFailed: chat.$openFailed,
    handle: chat.handle,
    open,
    attach,
    loadChatState: chatState.loadChatState,
    setChatState: chatState.setChatState,
    send,
    stop,
    /** Clearing (001 §4.6) empties the chat and forgets its session; the scope stays. */
    clear: () => {
      attachments.clear();
      open(null);
    },
    /** New chat (001 §4.7): empty, back to all data (the home feed), no last session. */
    newChat: () => {
      attachments.clear();
      open(null);
      const { report: _kept, ...fresh } = DEFAULT_CHAT_STATE;
      void chatState.setChatState(fresh);
    },
    /** Reads the active session again. */
    reload: () => {
      const id = $sessionId.peek();
      if (id) void chat.watch(id);
    },
  };
}

export type AssistantState = ReturnType<typeof createAssistantState>;

const states = new WeakMap<WorkspaceClient, AssistantState>();

/** The tab's assistant state: one per workspace client, made on first use. */
export function assistantStateFor(client: WorkspaceClient, timezone: () => string): AssistantState {
  let state = states.get(client);
  if (!state) {
    state = createAssistantState({ client, timezone });
    states.set(client, state);
  }
  return state;
}
