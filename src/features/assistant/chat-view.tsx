import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useRef, type ReactNode } from 'react';
import type { AskMode, ChatState } from '../../../contract/assistant';
import { attachmentsBlockSending } from '../../../contract/assistant-attachments';
import { isAnswering } from '../../state/assistant-chat';
import type { AssistantState } from '../../state/assistant-state';
import { useShell } from '../../shell-context';
import { RetryAlert } from '../../shell/retry-alert';
import { TITLE_TYPE_MS } from './assistant-texts';
import { noSourceSelected, scopeOfSession, scopeOfState, suggestionsQuery } from './chat-scope';
import { Composer, type WebSearchControl } from './composer';
import { useAttachments } from './use-attachments';
import { MessageList } from './message-list';
import { ScopePicker } from './scope-picker';
import { Suggestions } from './suggestions';
import { useTypedTitle } from './timed-text';
import './assistant.css';
import './answer-parts.css';

function ChatTitle(props: { title: string }) {
  const typed = useTypedTitle(props.title, TITLE_TYPE_MS);
  if (!props.title) return null;
  return (
    <h3 className="chat-title" aria-label={props.title}>
      <span aria-hidden="true">{typed}</span>
    </h3>
  );
}

/**
 * The chat (001 §2 "Chat screen contents"), the same on the full page and in the overlay: the
 * session's title typed out, new chat and clear, where new questions ask, suggested questions
 * for an empty chat, the conversation, and the question box. `actions` adds the variant's own
 * controls to the header (the overlay's "full screen").
 */
export function ChatView(props: {
  assistant: AssistantState;
  actions?: ReactNode;
  /** A line under the header (the overlay saying it resumed an earlier chat). */
  notice?: ReactNode;
}) {
  useSignals();
  const { state: shell, product } = useShell();
  const { assistant } = props;
  const chat = assistant.$chat.value;
  const pending = assistant.$pending.value;
  const chatState = assistant.$chatState.value;
  const openFailed = assistant.$openFailed.value;
  const sessionId = assistant.$sessionId.value;

  const messageCount = chat?.messages.length ?? 0;
  const hasMessages = messageCount > 0 || pending !== null;
  const scope =
    chat && messageCount > 0
      ? scopeOfSession(chat.metadata, product)
      : scopeOfState(chatState, product);
  const noSource = !hasMessages && noSourceSelected(chatState);
  const answering = isAnswering(chat) || (pending !== null && !pending.failed);
  const loadingSession = sessionId !== null && chat === null && !openFailed && pending === null;

  // The composer and the answers' follow-ups are memoised: their callbacks read the latest
  // scope through a ref, so they keep their identity while an answer streams.
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  const files = useAttachments({
    assistant,
    product,
    uploadOn: shell.$flags.value[`ask_${product}_upload`] === true,
    scope,
    hasMessages,
    webSearch: chatState.webSearch,
  });
  const withFiles = useRef(files.forQuestion);
  withFiles.current = files.forQuestion;
  const blocked = useRef(false);
  blocked.current = noSource || answering || attachmentsBlockSending(files.attachments);

  const send = useCallback(
    async (input: { prompt: string; mode: AskMode; pro: boolean }) => {
      if (blocked.current || !input.prompt.trim()) return false;
      try {
        const prompt = input.prompt.trim();
        await assistant.send({ ...input, prompt, ...withFiles.current(scopeRef.current) });
        return true;
      } catch {
        // The failed question shows with the error bubble (001 §4.4).
        return false;
      }
    },
    [assistant],
  );
  const ask = useCallback(
    (question: string) => void send({ prompt: question, mode: 'answer', pro: false }),
    [send],
  );
  const stop = useCallback(() => void assistant.stop(), [assistant]);

  const setScope = useCallback(
    (patch: Partial<ChatState>) => {
      assistant.clear();
      void assistant.setChatState(patch);
    },
    [assistant],
  );
  const webAllowed = shell.$flags.value[`ask_${product}_dataset_selection_${product}_universe`];
  const webOn = chatState.webSearch;
  const webLocked = hasMessages;
  const webSearch: WebSearchControl | null = useWebControl(
    webAllowed === true,
    webOn,
    webLocked,
    setScope,
  );

  return (
    <section className="chat-view" aria-label="Chat">
      <header className="chat-header">
        <ChatTitle title={chat?.title ?? ''} />
        <div className="chat-header-actions">
          {props.actions}
          <button
            type="button"
            className="button secondary small"
            onClick={() => assistant.clear()}
            disabled={!hasMessages || answering}
          >
            Clear
          </button>
          <button type="button" className="button small" onClick={() => assistant.newChat()}>
            New chat
          </button>
        </div>
      </header>
      {props.notice}
      <ScopePicker state={chatState} locked={hasMessages} onChange={setScope} />
      {openFailed ? <RetryAlert error={null} onRetry={assistant.reload} /> : null}
      {loadingSession ? (
        <p className="muted" role="status">
          Loading the conversation…
        </p>
      ) : null}
      {!hasMessages && !loadingSession && assistant.$chatStateReady.value ? (
        <Suggestions query={suggestionsQuery(scope)} noSource={noSource} onAsk={ask} />
      ) : null}
      <MessageList chat={chat} pending={pending} onAsk={ask} />
      <Composer
        product={product}
        hasMessages={hasMessages}
        answering={answering}
        disabled={noSource || loadingSession}
        webSearch={webSearch}
        attach={files.control}
        onSend={send}
        onStop={stop}
      />
    </section>
  );
}

/** The web-search switch (flag ask_{product}_dataset_selection_{product}_universe), stable. */
function useWebControl(
  allowed: boolean,
  on: boolean,
  locked: boolean,
  setScope: (patch: Partial<ChatState>) => void,
): WebSearchControl | null {
  const onToggle = useCallback(
    // Toggling starts the web-search session afresh (001 §4.8).
    (next: boolean) => setScope({ webSearch: next }),
    [setScope],
  );
  const ref = useRef<WebSearchControl | null>(null);
  if (!allowed) return null;
  if (!ref.current || ref.current.on !== on || ref.current.locked !== locked) {
    ref.current = { on, locked, onToggle };
  }
  return ref.current;
}
