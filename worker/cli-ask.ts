import {
  citationPreviewHref,
  HOME_ID,
  type AskAnswer,
  type AskScope,
  type Chat,
  type ChatBotMessage,
  type ChatUpdate,
  type Citation,
} from '../contract/assistant';
import type { OpInput, OpName, OpOutput, WorkerEvent } from '../contract/worker-api';
import { CliUsageError } from './cli-feed';

/**
 * `npm run ws -- ask "<question>" [--feed ID] [--doc ID] [--search]`: a question through the
 * worker's ask ops (the ones the chat screen calls), its answer written to the terminal as it
 * streams, then its citations and follow-up questions.
 */

type Call = <K extends OpName>(op: K, input: OpInput<K>) => Promise<OpOutput<K>>;
/** Adds a listener of the worker's events; answers its removal. */
type Listen = (listener: (event: WorkerEvent) => void) => () => void;

export const ASK_USAGE = `  ask "<question>" [--feed ID] [--doc ID] [--search]
                              ask the assistant about what you follow and own (or one feed,
                              or one document); the answer streams, then its citations;
                              --search lists the matching documents instead`;

export type AskArgs = { prompt: string; scope: AskScope; mode: 'answer' | 'search' };

export function parseAskArgs(args: string[]): AskArgs {
  const words: string[] = [];
  let scope: AskScope = { searchWithin: 'all', currentFeedOrDocumentId: HOME_ID };
  let mode: AskArgs['mode'] = 'answer';
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--feed' || arg === '--doc') {
      const value = args[(i += 1)];
      if (!value || value.startsWith('--')) throw new CliUsageError(`ask: ${arg} needs an ID`);
      scope =
        arg === '--feed'
          ? { searchWithin: 'feed', currentFeedOrDocumentId: value }
          : { searchWithin: 'document', currentFeedOrDocumentId: value, document_ids: [value] };
    } else if (arg === '--search') mode = 'search';
    else if (arg.startsWith('--')) throw new CliUsageError(`ask: unknown option "${arg}"`);
    else words.push(arg);
  }
  const prompt = words.join(' ').trim();
  if (!prompt) throw new CliUsageError('ask needs "<question>"');
  return { prompt, scope, mode };
}

const ENDED = new Set(['done', 'stopped', 'error']);
const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

/** The answer's citations, once each, in their order ([1], [2], ...). */
function citationsOf(data: AskAnswer): Citation[] {
  const byId = new Map<string, Citation>();
  for (const s of data.generated_answer.sentences) {
    for (const c of s.citations) if (!byId.has(c.id)) byId.set(c.id, c);
  }
  return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id));
}

/** What follows the answer: its citations (or search results) and follow-up questions. */
export function answerFooter(data: AskAnswer): string {
  const lines: string[] = [];
  if (data.answer_type === 'SEARCH') {
    data.retrieved_results.forEach((r, i) => {
      lines.push(`[${i + 1}] ${r.title_label} — ${r.source_label}, ${day(r.unix)}`);
      const link = r.url ?? citationPreviewHref(r);
      if (link) lines.push(`    ${link}`);
    });
  } else {
    for (const c of citationsOf(data)) {
      lines.push(`[${c.id}] ${c.title_label} — ${c.source_label}, ${day(c.unix)}`);
      const link = c.url ?? citationPreviewHref(c);
      if (link) lines.push(`    ${link}`);
    }
  }
  if (data.followup_questions.length) {
    lines.push('', 'Follow-up questions:', ...data.followup_questions.map((q) => `  - ${q}`));
  }
  return lines.length ? `\n${lines.join('\n')}\n` : '';
}

/**
 * Asks, then writes the answer as its patches come (a patch that does not follow on from the
 * text written so far makes it read the chat again), and the footer once it is done. Rejects
 * with the answer's error (or its stop).
 */
export async function ask(
  call: Call,
  listen: Listen,
  args: string[],
  write: (text: string) => void,
): Promise<void> {
  const { prompt, scope, mode } = parseAskArgs(args);
  let sessionId: string | null = null;
  let messageId: string | null = null;
  let written = 0;
  const end: { done?: (bot: ChatBotMessage) => void; fail?: (error: unknown) => void } = {};
  const finished = new Promise<ChatBotMessage>((resolve, reject) => {
    end.done = resolve;
    end.fail = reject;
  });
  const early: ChatUpdate[] = [];

  const show = (bot: ChatBotMessage | undefined) => {
    if (!bot) return;
    if (bot.streamingAnswer.length > written) write(bot.streamingAnswer.slice(written));
    written = Math.max(written, bot.streamingAnswer.length);
    if (ENDED.has(bot.phase)) end.done?.(bot);
  };
  const botOf = (chat: Chat) =>
    chat.messages.find((m): m is ChatBotMessage => m.type === 'bot' && m.id === messageId);
  const reread = () =>
    call('ask.watch', { sessionId: sessionId! }).then((chat) => show(botOf(chat)), end.fail);
  const apply = (update: ChatUpdate) => {
    if (update.kind === 'reset') return show(botOf(update.chat));
    if (update.messageId !== messageId) return;
    if (update.length - update.append.length === written) {
      write(update.append);
      written = update.length;
    } else if (update.length > written) return reread();
    // The end: the whole message (its data) is read once more.
    if (ENDED.has(update.phase)) return reread();
  };

  const stop = listen((event) => {
    if (event.type !== 'ask') return;
    if (sessionId === null) early.push(event.update);
    else if (event.sessionId === sessionId) apply(event.update);
  });
  try {
    const asked = await call('ask.send', { prompt, scope, mode });
    messageId = asked.messageId;
    const chat = await call('ask.watch', { sessionId: asked.sessionId });
    sessionId = asked.sessionId;
    show(botOf(chat));
    for (const update of early.splice(0)) apply(update);
    const bot = await finished;
    await call('ask.unwatch', { sessionId: asked.sessionId });
    if (bot.phase === 'error') throw new Error(bot.error ?? 'the answer failed');
    if (bot.phase === 'stopped') throw new Error('the answer was stopped');
    write('\n');
    if (bot.data) write(answerFooter(bot.data));
  } finally {
    stop();
  }
}
