import { batch, signal } from '@preact/signals-react';
import {
  DEFAULT_CHAT_STATE,
  type AskMode,
  type AskScope,
  type ChatState,
  type ChatUpdate,
} from '../../contract/assistant';
import type { WorkerEvent } from '../../contract/worker-api';
import type { WorkspaceClient } from '../workspace-client';
import { applyPatch, chatView, type ChatView } from './assistant-chat';

type Patch = Extract<ChatUpdate, { kind: 'patch' }>;

/** A question on its way to the worker (shown at once, before the chat has it). */
export type PendingQuestion = { prompt: string; failed: boolean };

export type AssistantStateDeps = {
  client: WorkspaceClient;
  /** The browser's time zone for answers that mention dates. */
  timezone: () => string;
};

/**
 * The assistant's signals in one tab (the only writer: ARCHITECTURE "The UI"). The watched
 * chat changes only through the worker's 'ask' events and ask.watch snapshots: a reset replaces
 * it, a patch appends to the streaming answer when its `length` says nothing was missed, else
 * the chat is asked for again. The full page and the overlay share this state; while neither is
 * shown the tab stops watching, so the worker sends it nothing.
 */
export function createAssistantState(deps: AssistantStateDeps) {
  const { client } = deps;
  const $chat = signal<ChatView | null>(null);
  /** The active session (null: a new chat). */
  const $sessionId = signal<string | null>(null);
  const $chatState = signal<ChatState>(DEFAULT_CHAT_STATE);
  /** The worker's chat state has been read (until then the scope is not known). */
  const $chatStateReady = signal(false);
  const $pending = signal<PendingQuestion | null>(null);
  /** Loading the active session's messages failed. */
  const $openFailed = signal(false);

  let views = 0;
  let watching: string | null = null;
  let snapshot: Promise<void> | null = null;
  let buffered: Patch[] = [];
  let round = 0;

  /**
   * The session's messages from the worker; it sends updates from now on. Patches that come
   * while the snapshot is on its way are kept and applied after it (those it already holds are
   * stale and skipped): dropping them would leave a gap, and asking again meanwhile would drop
   * more, for as long as the answer streams.
   */
  const watch = (sessionId: string) => {
    const mine = ++round;
    watching = sessionId;
    buffered = [];
    snapshot = client.call('ask.watch', { sessionId }).then(
      (chat) => {
        if (mine !== round) return;
        snapshot = null;
        const held = buffered;
        buffered = [];
        batch(() => {
          $chat.value = chatView(chat, $chat.peek());
          $openFailed.value = false;
          const pending = $pending.peek();
          if (pending && !pending.failed) $pending.value = null;
          for (const patch of held) applyOne(sessionId, patch);
        });
      },
      () => {
        if (mine !== round) return;
        snapshot = null;
        buffered = [];
        $openFailed.value = true;
      },
    );
    return snapshot;
  };

  const applyOne = (sessionId: string, patch: Patch) => {
    const chat = $chat.peek();
    if (!chat) return;
    const result = applyPatch(chat, patch);
    if (result.kind === 'applied') $chat.value = result.view;
    else if (result.kind === 'gap') void watch(sessionId);
  };

  const unwatch = () => {
    if (watching === null) return;
    const sessionId = watching;
    watching = null;
    round += 1;
    snapshot = null;
    void client.call('ask.unwatch', { sessionId }).catch(() => {});
  };

  const handle = (event: WorkerEvent) => {
    // A rename elsewhere reaches the chat as the worker's patch (its assistant_sessions watch):
    // the chat is not read again when the session changes, a megabyte answer would be cloned
    // to the tab once more for a title.
    if (event.type !== 'ask' || event.sessionId !== watching) return;
    const { update } = event;
    if (update.kind === 'reset') {
      // Newer than any snapshot still on its way, and than every patch held for it.
      if (snapshot) {
        round += 1;
        snapshot = null;
        buffered = [];
      }
      batch(() => {
        $chat.value = chatView(update.chat, $chat.peek());
        $openFailed.value = false;
        if ($pending.peek()?.failed === false) $pending.value = null;
      });
      return;
    }
    if (snapshot) buffered.push(update);
    else applyOne(event.sessionId, update);
  };
  client.onEvent(handle);

  /** Makes a session the active one (null: a new, empty chat). */
  const open = (sessionId: string | null) => {
    if (sessionId === $sessionId.peek()) return;
    unwatch();
    batch(() => {
      $sessionId.value = sessionId;
      $chat.value = null;
      $pending.value = null;
      $openFailed.value = false;
    });
    if (sessionId === null) return;
    if (views > 0) void watch(sessionId);
    void setChatState({ lastActiveSessionId: sessionId });
  };

  /** A screen shows the chat: watch while any does. Returns the detach. */
  const attach = () => {
    views += 1;
    const id = $sessionId.peek();
    if (views === 1 && id !== null && watching === null) void watch(id);
    return () => {
      views -= 1;
      if (views === 0) unwatch();
    };
  };

  /** Changes made before the stored state arrived: they win over it (made later). */
  let earlyEdits: Partial<ChatState> = {};
  const loadChatState = () =>
    client.call('ask.state', {}).then(
      (stored) => {
        const chatState = { ...stored, ...earlyEdits };
        earlyEdits = {};
        batch(() => {
          $chatState.value = chatState;
          $chatStateReady.value = true;
        });
        return chatState;
      },
      () => {
        $chatStateReady.value = true;
        return $chatState.peek();
      },
    );

  /** The chat state changes at once here and is stored by the worker (shared by the tabs). */
  const setChatState = (patch: Partial<ChatState>) => {
    if (!$chatStateReady.peek()) earlyEdits = { ...earlyEdits, ...patch };
    $chatState.value = { ...$chatState.peek(), ...patch };
    return client.call('ask.setState', patch).then(
      (chatState) => {
        $chatState.value = chatState;
      },
      () => {},
    );
  };

  /** Asks in the active chat (a new session when there is none); resolves with its id. */
  const send = async (input: { prompt: string; mode: AskMode; pro: boolean; scope: AskScope }) => {
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

  /** New chat (001 §4.7): empty, back to all data (the home feed), no last session. */
  const newChat = () => {
    open(null);
    const { report: _kept, ...fresh } = DEFAULT_CHAT_STATE;
    void setChatState(fresh);
  };

  return {
    $chat,
    $sessionId,
    $chatState,
    $chatStateReady,
    $pending,
    $openFailed,
    handle,
    open,
    attach,
    loadChatState,
    setChatState,
    send,
    stop,
    /** Clearing (001 §4.6) empties the chat and forgets its session; the scope stays. */
    clear: () => open(null),
    newChat,
    /** Reads the active session again. */
    reload: () => {
      const id = $sessionId.peek();
      if (id) void watch(id);
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
