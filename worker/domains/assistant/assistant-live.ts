import type {
  AskAnswer,
  AskStep,
  Chat,
  ChatBotMessage,
  ChatUpdate,
} from '../../../contract/assistant';
import type { WorkerEvent } from '../../../contract/worker-api';
import type { Clock, TimerId } from '../../deps';
import type { Connection } from '../../tabs';

/**
 * A chat while tabs watch it or a question of it streams: the chat as its watchers have it,
 * the connections watching, and what moved since the last update they got. Moves are
 * coalesced: at most one 'ask' patch per chat per PATCH_MS (on the worker's clock),
 * sent to the watching connections only; the end of an answer goes out at once.
 */

/**
 * A chat's watchers get at most one patch per this many ms: every third frame at 60 Hz, 20
 * updates a second. Text still flows smoothly, and a tab renders, lays out and paints the
 * answer a third as often as once per frame would: on a loaded machine that keeps its frames
 * and keystrokes on time (issue 8, bench/stream measures both; with 33 ms the same machine
 * dropped 7-26 frames per 200k-character answer, with 50 ms 4-11).
 */
export const PATCH_MS = 50;

type Phase = ChatBotMessage['phase'];

/** What moved in one bot message since the last patch. */
export type Move = {
  messageId: string;
  append?: string;
  phase?: Phase;
  steps?: AskStep[];
  data?: AskAnswer | null;
  error?: string | null;
  generatingStopped?: boolean;
  title?: string;
};

type Pending = Required<Pick<Move, 'messageId'>> & Omit<Move, 'messageId'> & { append: string };

export type LiveChat = {
  /** As the watchers have it: every patch sent is applied here, nothing pending is. */
  chat: Chat;
  watchers: Set<Connection>;
  pending: Pending | null;
  timer: TimerId | null;
};

export type Deliver = (conn: Connection, event: WorkerEvent) => boolean;

export const newLive = (chat: Chat): LiveChat => ({
  chat,
  watchers: new Set(),
  pending: null,
  timer: null,
});

const ENDED: ReadonlySet<Phase> = new Set(['done', 'stopped', 'error']);
/** A bot message still being answered. */
const isStreaming = (m: Chat['messages'][number]) => m.type === 'bot' && !ENDED.has(m.phase);

/** The bot message `id` of the chat. */
export const botMessage = (chat: Chat, id: string) =>
  chat.messages.find((m): m is ChatBotMessage => m.type === 'bot' && m.id === id);

/** The last bot message (the one a title or feedback update rides on). */
export const lastBot = (chat: Chat) =>
  chat.messages.findLast((m): m is ChatBotMessage => m.type === 'bot');

export function createLiveUpdates(deps: { clock: Clock; deliver: Deliver }) {
  /** To each watcher; a connection that is gone stops watching. */
  const send = (live: LiveChat, update: ChatUpdate) => {
    const event: WorkerEvent = { type: 'ask', sessionId: live.chat.sessionId, update };
    for (const conn of [...live.watchers]) {
      if (!deps.deliver(conn, event)) live.watchers.delete(conn);
    }
  };

  /** Applies the pending move to the chat; the patch that says it (null: nothing moved). */
  const applyPending = (live: LiveChat): ChatUpdate | null => {
    const move = live.pending;
    live.pending = null;
    if (live.timer !== null) deps.clock.clearTimeout(live.timer);
    live.timer = null;
    if (!move) return null;
    if (move.title !== undefined) live.chat = { ...live.chat, title: move.title };
    const bot = botMessage(live.chat, move.messageId);
    if (!bot) return null;
    const next: ChatBotMessage = {
      ...bot,
      streamingAnswer: bot.streamingAnswer + move.append,
      phase: move.phase ?? bot.phase,
      ...(move.steps ? { intermediateSteps: move.steps } : {}),
      ...(move.data !== undefined ? { data: move.data } : {}),
      ...(move.error !== undefined ? { error: move.error } : {}),
      ...(move.generatingStopped !== undefined
        ? { generatingStopped: move.generatingStopped }
        : {}),
    };
    const messages = live.chat.messages.map((m) => (m === bot ? next : m));
    // No patch says `streaming`: a tab derives it the same way, from the messages' phases.
    live.chat = { ...live.chat, messages, streaming: messages.some(isStreaming) };
    const { messageId, append, title, ...rest } = move;
    const fields = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    return {
      kind: 'patch',
      messageId,
      append,
      length: next.streamingAnswer.length,
      phase: next.phase,
      ...fields,
      ...(title !== undefined ? { title } : {}),
    };
  };

  /** Sends what is pending now (the end of an answer, or the frame's timer). */
  const flush = (live: LiveChat) => {
    const patch = applyPending(live);
    if (patch) send(live, patch);
  };

  return {
    send,
    flush,
    /**
     * Records a move; it goes out with the next patch (one per PATCH_MS), or at once with
     * `now` (an answer's end). A move of another message first sends the pending one.
     */
    queue(live: LiveChat, move: Move, now = false) {
      if (live.pending && live.pending.messageId !== move.messageId) flush(live);
      const held = live.pending ?? { messageId: move.messageId, append: '' };
      live.pending = {
        ...held,
        ...Object.fromEntries(Object.entries(move).filter(([, v]) => v !== undefined)),
        append: held.append + (move.append ?? ''),
      };
      if (now) return flush(live);
      if (live.timer === null) {
        live.timer = deps.clock.setTimeout(() => {
          live.timer = null;
          flush(live);
        }, PATCH_MS);
      }
    },
    /**
     * The whole chat to its watchers (a new question, a chat loaded again, a title or feedback
     * outside a stream), made by `edit` from the chat with what was pending applied.
     */
    reset(live: LiveChat, edit: (chat: Chat) => Chat) {
      applyPending(live);
      live.chat = edit(live.chat);
      send(live, { kind: 'reset', chat: live.chat });
    },
  };
}

export type LiveUpdates = ReturnType<typeof createLiveUpdates>;
