import type {
  AskAnswer,
  AskSearchResult,
  Chat,
  ChatBotMessage,
  ChatState,
  ChatUpdate,
  Citation,
  MessagingAnswer,
} from '../../contract/assistant';
import type { OpInput, OpName, OpOutput, WorkerEvent } from '../../contract/worker-api';
import { SIGNED_IN, renderShell } from './shell-fake-workspace';

type Handlers = { [K in OpName]?: (input: OpInput<K>) => OpOutput<K> | Promise<OpOutput<K>> };

export function citation(id: string, patch: Partial<Citation> = {}): Citation {
  return {
    id,
    document_id: `d${id}`,
    public_access_key: null,
    access_key: 'reuters',
    source: 'reuters',
    category_tab: 'rss_news',
    channel_id: null,
    mime_type: 'text/html',
    document_highlight: null,
    url: `https://example.com/story-${id}`,
    title_label: `Rates story ${id}`,
    source_label: 'Reuters',
    unix: 1_709_424_000,
    content_only: false,
    highlight_indexes: [{ start: 14, end: 24 }],
    context: 'Central banks held rates steady in March as inflation eased.',
    passage: { start: 0, end: 27 },
    ...patch,
  };
}

export function answer(patch: Partial<AskAnswer> = {}): AskAnswer {
  return {
    answer_type: 'ANSWER',
    retrieved_results: [],
    generated_answer: {
      answer: 'Central banks held rates [1].',
      sentences: [{ sentence: 'Central banks held rates [1].', citations: [citation('1')] }],
    },
    followup_questions: ['Will rates fall next year?'],
    message_id: 'm1',
    answer_quality: 'HIGH',
    session_id: 's1',
    ...patch,
  };
}

export function searchResult(id: string, highlights: string[]): AskSearchResult {
  return {
    document_id: `d${id}`,
    mime_type: 'text/html',
    title_label: `Result ${id}`,
    source_label: 'Reuters',
    source: 'reuters',
    category_tab: 'rss_news',
    access_key: 'reuters',
    unix: 1_709_424_000,
    url: null,
    highlights,
    highlight_indexes: highlights.map((_, i) => ({ start: i * 10, end: i * 10 + 5 })),
    highlighted_coordinates: [],
  };
}

export function bot(patch: Partial<ChatBotMessage> = {}): ChatBotMessage {
  return {
    type: 'bot',
    id: 'm1',
    prompt: 'What did central banks do?',
    mode: 'answer',
    phase: 'done',
    streamingAnswer: 'Central banks held rates [1].',
    intermediateSteps: [],
    data: answer(),
    generatingStopped: false,
    error: null,
    feedback: null,
    ...patch,
  };
}

export function chat(messages: ChatBotMessage[] = [bot()], patch: Partial<Chat> = {}): Chat {
  return {
    sessionId: 's1',
    title: 'What did central banks do',
    metadata: {
      type: 'all',
      board_id: null,
      channel_id: null,
      document_id: [],
      source: null,
      report_id: null,
    },
    messages: messages.flatMap((m) => [
      {
        type: 'user' as const,
        id: `u-${m.id}`,
        botMessageId: m.id,
        prompt: m.prompt,
        attachments: [],
      },
      m,
    ]),
    streaming: messages.some((m) => !['done', 'stopped', 'error'].includes(m.phase)),
    ...patch,
  };
}

export const SUGGESTIONS: MessagingAnswer = {
  all: [
    { question: 'What changed this week?', icon: '📈' },
    { question: 'Which companies reported?', icon: 'chart' },
  ],
  feed: [],
  document: [],
};

export const CHAT_STATE: ChatState = {
  searchWithin: 'all',
  currentFeedOrDocumentId: 'home',
  webSearch: false,
  lastActiveSessionId: null,
  report: { enabled: false, info: null, sources: [] },
};

/** A patch of the streaming answer (what the worker sends watching tabs). */
export function patch(
  append: string,
  length: number,
  extra: Partial<Extract<ChatUpdate, { kind: 'patch' }>> = {},
): WorkerEvent {
  return {
    type: 'ask',
    sessionId: 's1',
    update: { kind: 'patch', messageId: 'm1', append, length, phase: 'streaming', ...extra },
  };
}

export const reset = (value: Chat): WorkerEvent => ({
  type: 'ask',
  sessionId: value.sessionId,
  update: { kind: 'reset', chat: value },
});

/**
 * The shell at an assistant address with the assistant's ops answered: the chat state, the
 * suggestions, and sessions from `chats` (ask.watch answers the session's chat; ask.send starts
 * session s1 with message m1 loading).
 */
export async function renderAssistant(opts: {
  path: string;
  chats?: Record<string, Chat>;
  handlers?: Handlers;
  flags?: Record<string, boolean>;
  chatState?: Partial<ChatState>;
}) {
  const chats = { ...opts.chats };
  let state: ChatState = { ...CHAT_STATE, ...opts.chatState };
  const handlers: Handlers = {
    'flags.get': () => ({ my_data: true, ask_needl_copilot: true, ...opts.flags }),
    'ask.state': () => state,
    'ask.setState': (patch) => {
      state = { ...state, ...patch } as ChatState;
      return state;
    },
    'ask.suggestions': () => SUGGESTIONS,
    'ask.watch': ({ sessionId }) => {
      const found = chats[sessionId];
      if (!found) throw new Error(`no session ${sessionId}`);
      return found;
    },
    'ask.unwatch': () => ({}),
    'ask.send': ({ prompt, sessionId }) => {
      const id = sessionId ?? 's1';
      chats[id] = chat([bot({ prompt, phase: 'loading', streamingAnswer: '', data: null })], {
        sessionId: id,
        title: '',
      });
      return { sessionId: id, messageId: 'm1' };
    },
    'ask.stop': () => ({ stopped: true }),
    'ask.feedback': () => ({ ok: true }),
    'ask.sessions': () => ({ sessions: [], fresh: true }),
    ...opts.handlers,
  };
  const view = await renderShell({ path: opts.path, session: SIGNED_IN, handlers });
  return { ...view, chats, chatState: () => state };
}

export const searchOf = (history: { location: { search: string } }) =>
  Object.fromEntries(new URLSearchParams(history.location.search));

/**
 * Loads the assistant's screens before the tests (the app loads them on demand): the first
 * test of a file then waits for its own work, not for the modules to be transformed.
 */
export async function preloadAssistant() {
  await Promise.all([
    import('../../src/features/assistant/assistant-page'),
    import('../../src/features/assistant/assistant-overlay'),
    import('../../src/features/documents/preview-page'),
  ]);
}
