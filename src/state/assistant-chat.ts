import type { Chat, ChatBotMessage, ChatUpdate, ChatUserMessage } from '../../contract/assistant';
import { EMPTY_BLOCKS, appendBlocks, rebaseBlocks, type BlocksState } from '../lib/markdown-blocks';

/**
 * A chat as the tab shows it: the worker's Chat with each bot message's text kept as markdown
 * blocks (lib/markdown-blocks.ts), so a streamed append costs what was appended.
 * Pure functions: the assistant state (assistant-state.ts) holds the result in a signal.
 */

export type BotView = Omit<ChatBotMessage, 'streamingAnswer'> & {
  /** What is shown: the streamed text, then the final answer once DONE came. */
  text: BlocksState;
  /** Length of the streamed text (what a patch's `length` counts). */
  streamed: number;
};
export type MessageView = ChatUserMessage | BotView;
export type ChatView = Omit<Chat, 'messages'> & { messages: MessageView[] };

const TERMINAL: ReadonlySet<ChatBotMessage['phase']> = new Set(['done', 'stopped', 'error']);

/** The text a bot message shows: DONE's answer (with unsupported markers dropped) or the stream. */
function shownText(streamed: string, data: ChatBotMessage['data']): string {
  return data ? data.generated_answer.answer : streamed;
}

function botView(message: ChatBotMessage, before: BotView | undefined): BotView {
  const { streamingAnswer, ...rest } = message;
  const text = shownText(streamingAnswer, message.data);
  return {
    ...rest,
    // The same message seen before keeps its finished blocks (they are not rendered again).
    text: before ? rebaseBlocks(before.text, text) : rebaseBlocks(EMPTY_BLOCKS, text),
    streamed: streamingAnswer.length,
  };
}

/** A snapshot (ask.watch or a reset) as a view, reusing `before`'s blocks where they still hold. */
export function chatView(chat: Chat, before: ChatView | null): ChatView {
  const old = new Map<string, BotView>();
  if (before?.sessionId === chat.sessionId) {
    for (const m of before.messages) if (m.type === 'bot') old.set(m.id, m);
  }
  return {
    ...chat,
    messages: chat.messages.map((m) => (m.type === 'bot' ? botView(m, old.get(m.id)) : m)),
  };
}

export type PatchResult =
  | { kind: 'applied'; view: ChatView }
  /** Already included (a patch older than the snapshot): nothing to do. */
  | { kind: 'stale' }
  /** Text is missing between what the tab has and the patch: ask for a snapshot. */
  | { kind: 'gap' };

type Patch = Extract<ChatUpdate, { kind: 'patch' }>;

/** A patch applied to the streaming bot message; O(appended) while streaming. */
export function applyPatch(view: ChatView, patch: Patch): PatchResult {
  let index = -1;
  // The streaming message is the last one almost always: search from the end.
  for (let i = view.messages.length - 1; i >= 0; i -= 1) {
    if (view.messages[i].id === patch.messageId && view.messages[i].type === 'bot') {
      index = i;
      break;
    }
  }
  if (index < 0) return { kind: 'gap' };
  const bot = view.messages[index] as BotView;
  if (patch.length < bot.streamed + patch.append.length) return { kind: 'stale' };
  if (patch.length > bot.streamed + patch.append.length) return { kind: 'gap' };

  const data = patch.data !== undefined ? patch.data : bot.data;
  let text = appendBlocks(bot.text, patch.append);
  if (data && data !== bot.data) text = rebaseBlocks(text, data.generated_answer.answer);
  const next: BotView = {
    ...bot,
    // A late patch never takes a finished message back to loading or streaming.
    phase: TERMINAL.has(bot.phase) && !TERMINAL.has(patch.phase) ? bot.phase : patch.phase,
    intermediateSteps: patch.steps ?? bot.intermediateSteps,
    data,
    error: patch.error !== undefined ? patch.error : bot.error,
    generatingStopped: patch.generatingStopped ?? bot.generatingStopped,
    text,
    streamed: patch.length,
  };
  const messages = view.messages.slice();
  messages[index] = next;
  const streaming = TERMINAL.has(next.phase) ? false : view.streaming;
  return {
    kind: 'applied',
    view: { ...view, title: patch.title ?? view.title, streaming, messages },
  };
}

/** The last bot message, if any. */
export function lastBot(view: ChatView | null): BotView | null {
  if (!view) return null;
  for (let i = view.messages.length - 1; i >= 0; i -= 1) {
    const m = view.messages[i];
    if (m.type === 'bot') return m;
  }
  return null;
}

/** Whether an answer is being produced now (the stop control shows instead of send). */
export function isAnswering(view: ChatView | null): boolean {
  const bot = lastBot(view);
  return bot !== null && !TERMINAL.has(bot.phase);
}
